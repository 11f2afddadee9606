import { Link } from 'react-router';
import { PageTitle } from '#web/components/page-title';
import { buttonClasses } from '#web/components/ui/button';

export function NotFoundContent({ backTo, backLabel }: { backTo: string; backLabel: string }) {
  return (
    <section className="mx-auto flex w-full max-w-xl flex-1 flex-col items-center justify-center px-5 py-24 text-center">
      <PageTitle title="Page not found" />
      <p className="text-sm font-semibold tracking-[0.2em] text-rose-700 uppercase">Error 404</p>
      <h1 className="mt-4 text-4xl font-semibold tracking-tight text-balance text-stone-950 sm:text-5xl">
        Page not found
      </h1>
      <p className="mt-5 text-base leading-relaxed text-pretty text-stone-500">
        This page has moved, sold out, or never existed. Everything else is right where you left it.
      </p>
      <Link to={backTo} className={buttonClasses({ variant: 'secondary', size: 'lg', className: 'mt-10' })}>
        {backLabel}
      </Link>
    </section>
  );
}
