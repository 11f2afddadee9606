import { clsx, type ClassValue } from 'clsx';
import { twMerge } from 'tailwind-merge';

/**
 * Class names for a component: conditional parts as clsx takes them, then merged by tailwind-merge
 * so that a later utility wins over an earlier one of the same property (`cn('text-white',
 * 'text-emerald-400')` is `text-emerald-400`). Without the merge, the winner would be whichever rule
 * comes later in the stylesheet, whatever the order in the class list.
 */
export function cn(...inputs: ClassValue[]): string {
  return twMerge(clsx(inputs));
}
