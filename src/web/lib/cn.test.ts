import { describe, expect, it } from 'vitest';
import { cn } from './cn';

describe('cn', () => {
  it("lets a caller's className override a component's own padding, colour, corners and size", () => {
    expect(cn('px-6 text-sm text-white', 'px-4 text-emerald-400')).toBe('text-sm px-4 text-emerald-400');
    expect(cn('rounded-lg bg-stone-200', 'rounded-2xl')).toBe('bg-stone-200 rounded-2xl');
    expect(cn('size-8 shrink-0', 'size-10')).toBe('shrink-0 size-10');
    expect(cn('border border-stone-200', 'border-2 border-rose-600')).toBe('border-2 border-rose-600');
  });

  it('merges per breakpoint and state: a variant only replaces the same variant', () => {
    expect(cn('p-5 sm:p-6', 'p-4 sm:p-5')).toBe('p-4 sm:p-5');
    expect(cn('p-5 sm:p-6', 'p-4')).toBe('sm:p-6 p-4');
    expect(cn('bg-white hover:bg-stone-100', 'hover:bg-rose-50')).toBe('bg-white hover:bg-rose-50');
  });

  it('replaces one side when the later class names it, and all sides when it names them all', () => {
    expect(cn('px-3 py-2', 'pl-9')).toBe('px-3 py-2 pl-9');
    expect(cn('px-3 pl-9', 'p-2')).toBe('p-2');
  });

  it('tells font size from text colour, and keeps classes of different properties', () => {
    expect(cn('text-sm text-stone-700', false, undefined, 'text-[15px]')).toBe('text-stone-700 text-[15px]');
    expect(cn('flex h-11 items-center', 'gap-3 font-medium')).toBe(
      'flex h-11 items-center gap-3 font-medium',
    );
  });

  it('takes the conditional parts clsx takes', () => {
    expect(cn('px-3', { 'opacity-60': true, hidden: false }, ['text-sm', null])).toBe(
      'px-3 opacity-60 text-sm',
    );
  });
});
