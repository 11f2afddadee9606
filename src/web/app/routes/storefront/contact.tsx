import { Mail, MessagesSquare, Package } from 'lucide-react';
import type { ReactNode } from 'react';
import { data, Link, type ActionFunctionArgs, type ClientActionFunctionArgs } from 'react-router';
import { isErrorBody } from '#common/errors';
import type { PageContext } from '#common/page-context';
import { CONTACT_TEXTS, ContactInputSchema } from '#common/schemas/contact';
import { SUPPORT_API } from '#common/schemas/support-threads';
import { paths } from '#web/config/paths';
import { InfoPage } from '#web/app/layouts/info-page';
import {
  contactFormValues,
  type ContactFormResult,
  type ContactFormValues,
} from '#web/features/contact/api/contact';
import { ContactForm } from '#web/features/contact/components/contact-form';
import { fieldErrors } from '#web/lib/form-data';
import { useContactEmail } from '#web/lib/shop-info';

const linkClass =
  'font-medium text-stone-950 underline decoration-stone-300 underline-offset-2 hover:decoration-rose-600';

/** /contact: how a guest reaches the shop; the message lands in the admin's Messages. */
export default function StorefrontContactPage() {
  const contactEmail = useContactEmail();
  return (
    <InfoPage eyebrow="Help" title={CONTACT_TEXTS.title} intro={CONTACT_TEXTS.intro} width="wide">
      <div className="grid gap-10 lg:grid-cols-[minmax(0,1fr)_20rem] lg:items-start">
        <ContactForm />
        <aside aria-label="Other ways to reach us" className="space-y-6 text-[15px] text-stone-600">
          <Note icon={Package} title="About an order?">
            Give its number from your order email and the email you ordered with: our answers then also show
            on your order&apos;s page.
          </Note>
          <Note icon={MessagesSquare} title="Have an account?">
            Signed in, you can also open a ticket and follow the conversation in{' '}
            <Link to={paths.profile.messages.getHref()} className={linkClass}>
              Messages
            </Link>
            .
          </Note>
          {contactEmail ? (
            <Note icon={Mail} title="Prefer email?">
              Write to{' '}
              <a href={`mailto:${contactEmail}`} className={linkClass}>
                {contactEmail}
              </a>
              .
            </Note>
          ) : null}
          <p className="text-sm text-stone-500">
            See also the{' '}
            <Link to={paths.faq.getHref()} className={linkClass}>
              FAQ
            </Link>{' '}
            and{' '}
            <Link to={paths.shipping.getHref()} className={linkClass}>
              shipping
            </Link>{' '}
            pages.
          </p>
        </aside>
      </div>
    </InfoPage>
  );
}

function Note({ icon: Icon, title, children }: { icon: typeof Mail; title: string; children: ReactNode }) {
  return (
    <div className="flex gap-3.5">
      <span className="flex size-10 shrink-0 items-center justify-center rounded-full bg-rose-50 text-rose-600">
        <Icon className="size-4.5" strokeWidth={1.75} aria-hidden="true" />
      </span>
      <div className="min-w-0">
        <h2 className="font-semibold text-stone-950">{title}</h2>
        <p className="mt-1 leading-relaxed">{children}</p>
      </div>
    </div>
  );
}

function failure(
  message: string,
  values: ContactFormValues,
  status: number,
  fields?: Record<string, string>,
) {
  return data<ContactFormResult>({ error: { message, ...(fields ? { fields } : {}) }, values }, { status });
}

/**
 * The contact form's post, with or without the code: checked with the shared schema, then sent to
 * the API as the visitor (its client address counts against the form's limit). A refusal shows the
 * API's message with the fields at fault and keeps what was typed.
 */
export async function action({ request, context }: ActionFunctionArgs<PageContext>) {
  const values = contactFormValues(await request.formData());
  const parsed = ContactInputSchema.safeParse(values);
  if (!parsed.success) {
    return failure(
      parsed.error.issues[0]?.message ?? CONTACT_TEXTS.failed,
      values,
      400,
      fieldErrors(parsed.error),
    );
  }
  const res = await context.fetchApi(SUPPORT_API.contact, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(parsed.data),
  });
  if (res.ok) return data<ContactFormResult>({ sent: true });
  const body: unknown = await res.json().catch(() => null);
  return isErrorBody(body)
    ? failure(body.error.message, values, res.status, body.error.fields)
    : failure(CONTACT_TEXTS.failed, values, res.status);
}

/** In the browser: a post that never reached the server gets the fallback message. */
export async function clientAction({ request, serverAction }: ClientActionFunctionArgs) {
  const values = contactFormValues(await request.clone().formData());
  try {
    return await serverAction<ContactFormResult>();
  } catch (thrown) {
    if (thrown instanceof Response) throw thrown;
    return { error: { message: CONTACT_TEXTS.failed }, values } satisfies ContactFormResult;
  }
}
