import { Link } from 'react-router';
import { BrandLockup } from '#web/components/brand';
import { paths } from '#web/config/paths';
import { useContactEmail } from '#web/lib/shop-info';
import { useShopName } from '#web/lib/shop-name';

const columns = [
  {
    title: 'Shop',
    links: [
      { label: 'Shop all', to: paths.home.getHref('shop') },
      { label: 'How to Buy', to: paths.howToBuy.getHref() },
      { label: 'Shipping', to: paths.shipping.getHref() },
    ],
  },
  {
    title: 'Company',
    links: [
      { label: 'About', to: paths.about.getHref() },
      { label: 'FAQ', to: paths.faq.getHref() },
      { label: 'Contact', to: paths.contact.getHref() },
    ],
  },
  {
    title: 'Legal',
    links: [
      { label: 'Terms', to: paths.terms.getHref() },
      { label: 'Privacy', to: paths.privacy.getHref() },
    ],
  },
] as const;

export function StorefrontFooter() {
  const year = new Date().getFullYear();
  const contactEmail = useContactEmail();
  const shopName = useShopName();
  return (
    <footer className="bg-stone-950 text-stone-300">
      <div className="mx-auto w-full max-w-7xl px-5 pt-16 pb-10 sm:px-8">
        <div className="grid gap-12 md:grid-cols-[1.4fr_repeat(3,1fr)]">
          <div className="max-w-xs space-y-5">
            <Link to={paths.home.getHref()} className="inline-block rounded-lg">
              <BrandLockup tone="light" />
            </Link>
            <p className="text-sm leading-relaxed text-stone-400">
              Authenticated, pre-loved activewear for women and men. Pay by card, SOL or AELO, and share in
              the rewards.
            </p>
          </div>
          {columns.map((column) => (
            <nav key={column.title} aria-label={column.title}>
              <h2 className="text-xs font-semibold tracking-[0.14em] text-stone-400 uppercase">
                {column.title}
              </h2>
              <ul className="mt-4 space-y-3">
                {column.links.map((link) => (
                  <li key={link.label}>
                    <Link
                      to={link.to}
                      className="rounded text-sm text-stone-300 transition-colors hover:text-white"
                    >
                      {link.label}
                    </Link>
                  </li>
                ))}
              </ul>
            </nav>
          ))}
        </div>
        <div className="mt-14 flex flex-col gap-2 border-t border-white/10 pt-6 text-xs text-stone-400 sm:flex-row sm:items-center sm:justify-between">
          <p>{`© ${year} ${shopName}. All rights reserved.`}</p>
          {contactEmail ? (
            <p>
              Questions?{' '}
              <a
                href={`mailto:${contactEmail}`}
                className="text-stone-200 underline-offset-2 hover:underline"
              >
                {contactEmail}
              </a>
            </p>
          ) : null}
          <p>Free shipping on orders over $50 · Continental US</p>
        </div>
      </div>
    </footer>
  );
}
