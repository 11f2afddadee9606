import type { ReactNode } from 'react';

/** The centred white card the sign-in and email-flow pages sit in. */
export function AuthCard({ children }: { children: ReactNode }) {
  return (
    <div className="flex flex-1 items-center justify-center bg-stone-50 px-4 py-14 sm:py-24">
      <div className="w-full max-w-[27rem] rounded-[1.75rem] bg-white p-7 shadow-xl ring-1 shadow-stone-900/[0.04] ring-stone-200/70 sm:p-10">
        {children}
      </div>
    </div>
  );
}
