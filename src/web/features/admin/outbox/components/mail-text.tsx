import { Fragment } from 'react';

const URL_PATTERN = /https?:\/\/[^\s<>"']+/g;

/** Splits text into plain parts and http(s) links (trailing punctuation stays text). */
export function linkParts(text: string): { text: string; href?: string }[] {
  const parts: { text: string; href?: string }[] = [];
  let last = 0;
  for (const match of text.matchAll(URL_PATTERN)) {
    let url = match[0];
    const trailing = /[.,;:!?)\]]+$/.exec(url)?.[0] ?? '';
    url = url.slice(0, url.length - trailing.length);
    const start = match.index;
    if (start > last) parts.push({ text: text.slice(last, start) });
    parts.push({ text: url, href: url });
    last = start + url.length;
  }
  if (last < text.length) parts.push({ text: text.slice(last) });
  return parts;
}

/** A mail's text body, as written, with its links made clickable (opened in a new tab). */
export function MailText({ text }: { text: string }) {
  return (
    <div className="text-sm leading-relaxed break-words whitespace-pre-wrap text-stone-800">
      {linkParts(text).map((part, i) =>
        part.href ? (
          <a
            key={i}
            href={part.href}
            target="_blank"
            rel="noopener noreferrer"
            className="font-medium break-all text-rose-700 underline decoration-rose-300 underline-offset-2 hover:text-rose-800 hover:decoration-rose-500"
          >
            {part.text}
          </a>
        ) : (
          <Fragment key={i}>{part.text}</Fragment>
        ),
      )}
    </div>
  );
}
