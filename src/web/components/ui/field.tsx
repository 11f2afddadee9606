import { cn } from '#web/lib/cn';
import { createContext, useContext, useId, type LabelHTMLAttributes, type ReactNode } from 'react';

interface FieldContextValue {
  id: string;
  describedBy: string | undefined;
  isInvalid: boolean;
  isRequired: boolean;
}

const FieldContext = createContext<FieldContextValue | null>(null);

/** Inside a <Field>: the id, aria-describedby and invalid state its control should carry. */
export function useFieldControl(): FieldContextValue | null {
  return useContext(FieldContext);
}

export function Label({ className, children, ...props }: LabelHTMLAttributes<HTMLLabelElement>) {
  return (
    <label className={cn('block text-sm font-medium text-stone-800', className)} {...props}>
      {children}
    </label>
  );
}

export interface FieldProps {
  label: ReactNode;
  /** Shown under the control in red and announced with it. */
  error?: string | undefined;
  hint?: ReactNode;
  isRequired?: boolean;
  /** Something next to the label, e.g. a "Forgot password?" link. */
  labelAside?: ReactNode;
  className?: string;
  children: ReactNode;
}

/** Label + control + hint/error, wired together (the control reads them with useFieldControl). */
export function Field({
  label,
  error,
  hint,
  isRequired = false,
  labelAside,
  className,
  children,
}: FieldProps) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [errorId, hintId].filter(Boolean).join(' ') || undefined;
  return (
    <FieldContext.Provider value={{ id, describedBy, isInvalid: Boolean(error), isRequired }}>
      <div className={cn('space-y-1.5', className)}>
        <div className="flex items-baseline justify-between gap-3">
          <Label htmlFor={id}>{label}</Label>
          {labelAside}
        </div>
        {children}
        {hint && !error ? (
          <p id={hintId} className="text-xs text-stone-500">
            {hint}
          </p>
        ) : null}
        {error ? (
          <p id={errorId} className="text-xs font-medium text-red-600">
            {error}
          </p>
        ) : null}
      </div>
    </FieldContext.Provider>
  );
}
