import { cn } from '#web/lib/cn';
import { CircleAlert, CircleCheck, Info } from 'lucide-react';
import type { ReactNode } from 'react';

export type AlertVariant = 'error' | 'success' | 'info';

const styles: Record<AlertVariant, string> = {
  error: 'border-red-200 bg-red-50 text-red-800',
  success: 'border-emerald-200 bg-emerald-50 text-emerald-800',
  info: 'border-stone-200 bg-stone-50 text-stone-700',
};

const icons = { error: CircleAlert, success: CircleCheck, info: Info } as const;

export interface AlertProps {
  variant?: AlertVariant;
  title?: ReactNode;
  children?: ReactNode;
  className?: string;
}

/** A message box. Errors are announced at once (role=alert); others politely (role=status). */
export function Alert({ variant = 'info', title, children, className }: AlertProps) {
  const Icon = icons[variant];
  return (
    <div
      role={variant === 'error' ? 'alert' : 'status'}
      className={cn('flex gap-3 rounded-xl border px-4 py-3 text-sm', styles[variant], className)}
    >
      <Icon className="mt-px size-4.5 shrink-0" aria-hidden="true" />
      <div className="min-w-0 space-y-0.5">
        {title ? <p className="font-semibold">{title}</p> : null}
        {children ? <div className="leading-relaxed">{children}</div> : null}
      </div>
    </div>
  );
}
