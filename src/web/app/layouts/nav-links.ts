import { paths } from '#web/config/paths';

/** The storefront's main links, in the top bar on wide screens and in the side menu on small ones. */
export const mainNavLinks = [
  { label: 'Home', to: paths.home.getHref() },
  { label: 'Shop', to: paths.home.getHref('shop') },
  { label: 'Rewards', to: paths.home.getHref('rewards') },
  { label: 'Ecosystem', to: paths.home.getHref('ecosystem') },
  { label: 'How to Buy', to: paths.howToBuy.getHref() },
] as const;
