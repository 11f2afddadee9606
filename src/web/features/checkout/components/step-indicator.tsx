import { cn } from '#web/lib/cn';
import { Check } from 'lucide-react';
import { CHECKOUT_STEPS, type CheckoutStep } from '../stores/checkout-store';

/** The four checkout steps; the current one is marked aria-current="step". */
export function StepIndicator({ current }: { current: CheckoutStep }) {
  const currentIndex = CHECKOUT_STEPS.findIndex((s) => s.key === current);
  return (
    <div className="border-b border-stone-100 px-5 pt-3 pb-4">
      <ol aria-label="Checkout progress" className="grid grid-cols-4">
        {CHECKOUT_STEPS.map((step, index) => {
          const isDone = index < currentIndex;
          const isCurrent = index === currentIndex;
          return (
            <li
              key={step.key}
              aria-current={isCurrent ? 'step' : undefined}
              className="relative flex flex-col items-center gap-1.5"
            >
              {index > 0 ? (
                <span
                  aria-hidden="true"
                  className={cn(
                    'absolute top-3 right-[calc(50%+0.875rem)] left-[calc(-50%+0.875rem)] h-px',
                    index <= currentIndex ? 'bg-rose-600' : 'bg-stone-200',
                  )}
                />
              ) : null}
              <span
                aria-hidden="true"
                className={cn(
                  'relative flex size-6 items-center justify-center rounded-full text-[11px] font-semibold tabular-nums transition-colors',
                  isDone && 'bg-rose-600 text-white',
                  isCurrent && 'bg-rose-600 text-white ring-4 ring-rose-100',
                  !isDone && !isCurrent && 'bg-white text-stone-500 ring-1 ring-stone-300 ring-inset',
                )}
              >
                {isDone ? <Check className="size-3.5" strokeWidth={3} /> : index + 1}
              </span>
              <span
                className={cn(
                  'text-[11px] leading-none font-medium tracking-tight sm:text-xs',
                  isCurrent ? 'text-stone-950' : isDone ? 'text-stone-600' : 'text-stone-500',
                )}
              >
                {step.label}
                {isDone ? <span className="sr-only"> (done)</span> : null}
              </span>
            </li>
          );
        })}
      </ol>
    </div>
  );
}
