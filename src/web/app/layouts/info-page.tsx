import { cn } from '#web/lib/cn';
import { ArrowLeft } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { PageTitle } from '#web/components/page-title';
import { paths } from '#web/config/paths';

/** The link every info page starts with (spec §2: "Every info page has a Back to Home link to /"). */
export function BackToHome({ label = 'Back to Home' }: { label?: string }) {
  return (
    <Link
      to={paths.home.getHref()}
      className="group -ml-1 inline-flex items-center gap-1.5 rounded-full px-1 py-1 text-sm font-medium text-stone-500 transition-colors hover:text-stone-950"
    >
      <ArrowLeft className="size-4 transition-transform group-hover:-translate-x-0.5" aria-hidden="true" />
      {label}
    </Link>
  );
}

/** The frame of a simple storefront page: back link, eyebrow, heading, optional intro and content. */
export function InfoPage({
  title,
  eyebrow,
  intro,
  meta,
  width = 'narrow',
  children,
}: {
  title: string;
  eyebrow?: string;
  intro?: ReactNode;
  /** A small line under the heading, e.g. "Last updated ...". */
  meta?: ReactNode;
  width?: 'narrow' | 'wide';
  children?: ReactNode;
}) {
  return (
    <div
      className={cn(
        'mx-auto w-full px-5 pt-8 pb-24 sm:px-8 sm:pt-12',
        width === 'wide' ? 'max-w-6xl' : 'max-w-3xl',
      )}
    >
      <PageTitle title={title} />
      <BackToHome />
      <header className="mt-10 sm:mt-14">
        {eyebrow ? (
          <p className="text-xs font-semibold tracking-[0.18em] text-rose-600 uppercase">{eyebrow}</p>
        ) : null}
        <h1 className="mt-3 text-4xl font-semibold tracking-[-0.035em] text-balance text-stone-950 sm:text-5xl">
          {title}
        </h1>
        {meta ? <p className="mt-4 text-sm text-stone-500">{meta}</p> : null}
        {intro ? (
          <div className="mt-5 max-w-2xl text-lg leading-relaxed text-pretty text-stone-500">{intro}</div>
        ) : null}
      </header>
      {children ? <div className="mt-12 sm:mt-16">{children}</div> : null}
    </div>
  );
}

/** A titled block of an info page. */
export function InfoSection({
  title,
  id,
  children,
  className,
}: {
  title: ReactNode;
  id?: string;
  children: ReactNode;
  className?: string;
}) {
  return (
    <section
      id={id}
      aria-labelledby={id ? `${id}-title` : undefined}
      className={cn('scroll-mt-24', className)}
    >
      <h2
        id={id ? `${id}-title` : undefined}
        className="text-xl font-semibold tracking-[-0.02em] text-stone-950 sm:text-2xl"
      >
        {title}
      </h2>
      <div className="mt-4 space-y-4 text-[15px] leading-relaxed text-pretty text-stone-600">{children}</div>
    </section>
  );
}

/** A bulleted list in an info page's body text. */
export function InfoList({ items }: { items: ReactNode[] }) {
  return (
    <ul className="space-y-2.5">
      {items.map((item, i) => (
        <li key={i} className="flex gap-3">
          <span aria-hidden="true" className="mt-2.5 size-1.5 shrink-0 rounded-full bg-rose-500" />
          <span>{item}</span>
        </li>
      ))}
    </ul>
  );
}
