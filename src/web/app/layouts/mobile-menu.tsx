import { ArrowUpRight, ChevronRight } from 'lucide-react';
import { Link } from 'react-router';
import { BrandLockup } from '#web/components/brand';
import { buttonClasses } from '#web/components/ui/button';
import { Drawer, DrawerHeader } from '#web/components/ui/dialog';
import { tokenBuyUrl } from '#common/token';
import { BuyTokenButton } from '#web/features/token/components/buy-token-button';
import { useTokenInfo } from '#web/lib/shop-info';
import { paths } from '#web/config/paths';
import { mainNavLinks } from './nav-links';

/** The side menu of small screens. */
export function MobileMenu({ open, onClose }: { open: boolean; onClose: () => void }) {
  const token = useTokenInfo();
  const mint = token?.mint;
  const local = token?.cluster === 'local';
  return (
    <Drawer open={open} onClose={onClose} side="right" aria-label="Menu" id="mobile-menu">
      <DrawerHeader onClose={onClose} closeLabel="Close menu">
        <BrandLockup showTagline={false} />
      </DrawerHeader>
      <nav aria-label="Mobile" className="flex-1 overflow-y-auto px-3 py-4">
        <ul className="space-y-0.5">
          {mainNavLinks.map((link) => (
            <li key={link.label}>
              <Link
                to={link.to}
                onClick={onClose}
                className="group flex h-13 items-center justify-between rounded-xl px-3 text-[17px] font-medium tracking-[-0.01em] text-stone-800 transition-colors hover:bg-stone-50 hover:text-stone-950"
              >
                {link.label}
                <ChevronRight
                  className="size-4 text-stone-300 transition-colors group-hover:text-rose-600"
                  aria-hidden="true"
                />
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <div className="border-t border-stone-100 p-5">
        {local ? (
          // The demo ledger's token is sold only here: the shop's own Buy Token, not an exchange.
          <BuyTokenButton size="lg" className="w-full" />
        ) : (
          <a
            href={mint ? tokenBuyUrl(mint) : paths.howToBuy.getHref()}
            target="_blank"
            rel="noopener noreferrer"
            onClick={onClose}
            className={buttonClasses({ size: 'lg', fullWidth: true })}
          >
            Buy Token
            <ArrowUpRight className="size-4" aria-hidden="true" />
            <span className="sr-only">(opens in a new tab)</span>
          </a>
        )}
        <p className="mt-3 text-center text-xs text-stone-500">Pay with AELO and save 10% on every order.</p>
      </div>
    </Drawer>
  );
}
