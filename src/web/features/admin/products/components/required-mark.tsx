import type { ReactNode } from 'react';

/** A field label with the rose asterisk of a required field. */
export function RequiredMark({ children }: { children: ReactNode }) {
  return (
    <>
      {children}
      <span aria-hidden="true" className="ml-0.5 text-rose-600">
        *
      </span>
    </>
  );
}
