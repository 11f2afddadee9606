import { clsx, type ClassValue } from 'clsx';
import { createTailwindMerge } from 'tailwind-merge';

const any = () => true;
const sizes = ['xs', 'sm', 'base', 'lg', 'xl', '2xl', '3xl', '4xl', '5xl', '6xl', '7xl', '8xl', '9xl'];
const isArbitraryLength = (value: string) =>
  /^\[(?:length:)?[\d.]+(?:px|r?em|%|vh|vw|dvh|ch)?\]$/.test(value);
const isNumber = (value: string) => /^\d+(?:\.\d+)?$/.test(value);
const sides = (prefix: string) => ({
  [prefix]: [{ [prefix]: [any] }],
  [`${prefix}x`]: [{ [`${prefix}x`]: [any] }],
  [`${prefix}y`]: [{ [`${prefix}y`]: [any] }],
  [`${prefix}t`]: [{ [`${prefix}t`]: [any] }],
  [`${prefix}r`]: [{ [`${prefix}r`]: [any] }],
  [`${prefix}b`]: [{ [`${prefix}b`]: [any] }],
  [`${prefix}l`]: [{ [`${prefix}l`]: [any] }],
});
const sideConflicts = (p: string) => ({
  [p]: [`${p}x`, `${p}y`, `${p}t`, `${p}r`, `${p}b`, `${p}l`],
  [`${p}x`]: [`${p}r`, `${p}l`],
  [`${p}y`]: [`${p}t`, `${p}b`],
});
const corners = ['t', 'r', 'b', 'l', 'tl', 'tr', 'br', 'bl'];

/**
 * tailwind-merge's engine with only the utility families our components let a caller override
 * (spacing, sizes, corners, colours, type, layout). The library's full default configuration is
 * 8.4 KB gzipped on every first visit; this one is about 2.5 KB. tests/unit/cn.test.ts checks that
 * it merges every class combination written in src/web exactly as the full configuration does.
 */
const merge = createTailwindMerge(() => ({
  cacheSize: 500,
  theme: {},
  classGroups: {
    display: [
      'block',
      'inline-block',
      'inline',
      'flex',
      'inline-flex',
      'grid',
      'inline-grid',
      'hidden',
      'contents',
    ],
    position: ['static', 'fixed', 'absolute', 'relative', 'sticky'],
    ...sides('p'),
    ...sides('m'),
    w: [{ w: [any] }],
    'min-w': [{ 'min-w': [any] }],
    'max-w': [{ 'max-w': [any] }],
    h: [{ h: [any] }],
    'min-h': [{ 'min-h': [any] }],
    'max-h': [{ 'max-h': [any] }],
    size: [{ size: [any] }],
    rounded: ['rounded', { rounded: [any] }],
    ...Object.fromEntries(
      corners.map((c) => [`rounded-${c}`, [`rounded-${c}`, { [`rounded-${c}`]: [any] }]]),
    ),
    'font-size': [{ text: [...sizes, isArbitraryLength] }],
    'text-alignment': [{ text: ['left', 'center', 'right', 'justify', 'start', 'end'] }],
    'text-wrap': [{ text: ['wrap', 'nowrap', 'balance', 'pretty'] }],
    'text-overflow': ['truncate', 'text-ellipsis', 'text-clip'],
    'text-color': [{ text: [any] }],
    'font-weight': [
      { font: ['thin', 'extralight', 'light', 'normal', 'medium', 'semibold', 'bold', 'extrabold', 'black'] },
    ],
    'font-family': [{ font: ['sans', 'serif', 'mono'] }],
    leading: [{ leading: [any] }],
    tracking: [{ tracking: [any] }],
    'bg-color': [{ bg: [any] }],
    'border-w': ['border', { border: [isNumber, isArbitraryLength] }],
    ...Object.fromEntries(
      ['x', 'y', 't', 'r', 'b', 'l'].map((side) => [
        `border-w-${side}`,
        [`border-${side}`, { [`border-${side}`]: [isNumber, isArbitraryLength] }],
      ]),
    ),
    'border-style': [{ border: ['solid', 'dashed', 'dotted', 'double', 'hidden', 'none'] }],
    'border-collapse': [{ border: ['collapse', 'separate'] }],
    'border-color': [{ border: [any] }],
    ring: ['ring', { ring: [isNumber, isArbitraryLength] }],
    'ring-inset': ['ring-inset'],
    'ring-offset-w': [{ 'ring-offset': [isNumber, isArbitraryLength] }],
    'ring-offset-color': [{ 'ring-offset': [any] }],
    'ring-color': [{ ring: [any] }],
    shadow: [
      'shadow',
      {
        shadow: [
          'xs',
          'sm',
          'md',
          'lg',
          'xl',
          '2xl',
          'none',
          'inner',
          (value: string) => value.startsWith('['),
        ],
      },
    ],
    'shadow-color': [{ shadow: [any] }],
    'flex-direction': [{ flex: ['row', 'row-reverse', 'col', 'col-reverse'] }],
    'flex-wrap': [{ flex: ['wrap', 'wrap-reverse', 'nowrap'] }],
    flex: [{ flex: [isNumber, 'auto', 'initial', 'none'] }],
    shrink: ['shrink', { shrink: [any] }],
    grow: ['grow', { grow: [any] }],
    'space-x': [{ 'space-x': [any] }],
    'space-y': [{ 'space-y': [any] }],
    transition: ['transition', { transition: [any] }],
    gap: [{ gap: [any] }],
    'gap-x': [{ 'gap-x': [any] }],
    'gap-y': [{ 'gap-y': [any] }],
    opacity: [{ opacity: [any] }],
    overflow: [{ overflow: ['auto', 'hidden', 'clip', 'visible', 'scroll'] }],
    'overflow-x': [{ 'overflow-x': ['auto', 'hidden', 'clip', 'visible', 'scroll'] }],
    'overflow-y': [{ 'overflow-y': ['auto', 'hidden', 'clip', 'visible', 'scroll'] }],
    z: [{ z: [any] }],
    inset: [{ inset: [any] }],
    'inset-x': [{ 'inset-x': [any] }],
    'inset-y': [{ 'inset-y': [any] }],
    top: [{ top: [any] }],
    right: [{ right: [any] }],
    bottom: [{ bottom: [any] }],
    left: [{ left: [any] }],
    'align-items': [{ items: ['start', 'end', 'center', 'baseline', 'stretch'] }],
    'justify-content': [
      { justify: ['normal', 'start', 'end', 'center', 'between', 'around', 'evenly', 'stretch'] },
    ],
    aspect: [{ aspect: [any] }],
    'line-clamp': [{ 'line-clamp': [any] }],
    'grid-cols': [{ 'grid-cols': [any] }],
    'grid-rows': [{ 'grid-rows': [any] }],
    'col-span': [{ col: [any] }],
    'row-span': [{ row: [any] }],
  },
  conflictingClassGroups: {
    ...sideConflicts('p'),
    ...sideConflicts('m'),
    size: ['w', 'h'],
    rounded: corners.map((c) => `rounded-${c}`),
    'rounded-t': ['rounded-tl', 'rounded-tr'],
    'rounded-r': ['rounded-tr', 'rounded-br'],
    'rounded-b': ['rounded-br', 'rounded-bl'],
    'rounded-l': ['rounded-tl', 'rounded-bl'],
    gap: ['gap-x', 'gap-y'],
    overflow: ['overflow-x', 'overflow-y'],
    inset: ['inset-x', 'inset-y', 'top', 'right', 'bottom', 'left'],
    'inset-x': ['right', 'left'],
    'inset-y': ['top', 'bottom'],
    'font-size': ['leading'],
    flex: ['grow', 'shrink'],
    'line-clamp': ['display', 'overflow'],
    'border-w': ['border-w-x', 'border-w-y', 'border-w-t', 'border-w-r', 'border-w-b', 'border-w-l'],
    'border-w-x': ['border-w-r', 'border-w-l'],
    'border-w-y': ['border-w-t', 'border-w-b'],
  },
  conflictingClassGroupModifiers: {},
  orderSensitiveModifiers: [],
}));

/**
 * Class names for a component: conditional parts as clsx takes them, then merged so that a later
 * utility wins over an earlier one of the same property (`cn('text-white', 'text-emerald-400')` is
 * `text-emerald-400`). Without the merge, the winner would be whichever rule comes later in the
 * stylesheet, whatever the order in the class list.
 */
export function cn(...inputs: ClassValue[]): string {
  return merge(clsx(inputs));
}
