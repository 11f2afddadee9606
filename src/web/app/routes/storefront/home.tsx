import { ArrowRight, BadgeCheck, Coins, Truck } from 'lucide-react';
import { lazy, Suspense, type ReactNode } from 'react';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import { PageTitle } from '#web/components/page-title';
import { buttonClasses } from '#web/components/ui/button';
import { paths, type LandingSection } from '#web/config/paths';
import { useCartStore } from '#web/features/checkout/stores/cart-store';
import { productQueryOptions, useProduct } from '#web/features/catalog/api/get-product';
import { productsQueryOptions } from '#web/features/catalog/api/get-products';
import { tokenStatsQueryOptions } from '#web/features/market/api/get-token-stats';
import type { PageHandle } from '#web/app/page-data';
import type { OpenedFromShopState } from '#web/features/catalog/components/product-card';
import { ProductBrowser } from '#web/features/catalog/components/product-browser';
import type { AddToCartSelection } from '#web/features/catalog/components/product-modal';
import { AirdropProgress } from '#web/features/market/components/airdrop-progress';
import { ShippingTicker } from '#web/features/market/components/shipping-ticker';
import { TickerBoundary, TokenTicker } from '#web/features/market/components/token-ticker';
import { BuyTokenButton } from '#web/features/token/components/buy-token-button';
import { EcosystemCards } from '#web/features/token/components/ecosystem-cards';
import { RewardsDetails } from '#web/features/token/components/rewards-details';
import { catalogKeys } from '#web/features/catalog/api/catalog-keys';
import { useLiveEvents } from '#web/lib/live-events';
import { useHashAnchor } from '#web/lib/use-hash-anchor';

/** The product modal (gallery, options, size guide) loads when a product is first opened. */
const ProductModal = lazy(() =>
  import('#web/features/catalog/components/product-modal').then((m) => ({ default: m.ProductModal })),
);

const promises = [
  { icon: BadgeCheck, label: 'Authenticated by hand' },
  { icon: Truck, label: 'Free shipping over $50' },
  { icon: Coins, label: '10% off with AELO' },
] as const;

function HeroArt() {
  return (
    <div aria-hidden="true" className="relative hidden lg:block">
      <div className="relative aspect-[4/5] overflow-hidden rounded-[2rem] bg-gradient-to-br from-rose-600 via-rose-700 to-rose-950 shadow-2xl shadow-rose-950/25">
        {/* Running-track lanes */}
        <svg
          viewBox="0 0 400 500"
          className="absolute inset-0 size-full"
          preserveAspectRatio="xMidYMid slice"
        >
          {[0, 1, 2, 3, 4, 5, 6].map((lane) => (
            <ellipse
              key={lane}
              cx="400"
              cy="520"
              rx={120 + lane * 42}
              ry={240 + lane * 42}
              fill="none"
              stroke="white"
              strokeOpacity={0.22 - lane * 0.025}
              strokeWidth="1.25"
            />
          ))}
        </svg>
        <p className="absolute top-9 left-9 text-[7.5rem] leading-[0.8] font-semibold tracking-[-0.07em] text-white">
          AELO
        </p>
        <p className="absolute top-[8.75rem] left-10 text-[11px] font-semibold tracking-[0.22em] text-white/70 uppercase">
          Active · Est. 2024
        </p>
      </div>
      <div className="absolute -bottom-8 -left-10 w-64 rounded-2xl bg-white p-5 shadow-xl ring-1 shadow-stone-900/10 ring-stone-900/5">
        <p className="text-[11px] font-semibold tracking-[0.16em] text-stone-500 uppercase">Every sale</p>
        <p className="mt-2 text-sm leading-snug font-medium text-stone-900">
          10% to buybacks and 10% to random holder rewards.
        </p>
        <div className="mt-4 flex h-1.5 gap-0.5 overflow-hidden rounded-full bg-stone-100">
          <span className="w-[10%] rounded-full bg-rose-600" />
          <span className="w-[10%] rounded-full bg-rose-300" />
        </div>
      </div>
    </div>
  );
}

function Hero() {
  return (
    <section className="relative overflow-hidden">
      <div
        aria-hidden="true"
        className="pointer-events-none absolute -top-40 right-[-10%] size-[40rem] rounded-full bg-rose-100/60 blur-3xl"
      />
      <div className="relative mx-auto grid w-full max-w-7xl items-center gap-16 px-5 pt-12 pb-16 sm:px-8 sm:pt-16 sm:pb-24 lg:grid-cols-[1.15fr_0.85fr] lg:gap-20 lg:pt-20 lg:pb-28">
        <div>
          <p className="inline-flex items-center gap-2 rounded-full border border-stone-200 bg-white/70 px-3.5 py-1.5 text-xs font-medium text-stone-600">
            <span className="size-1.5 rounded-full bg-rose-600" aria-hidden="true" />
            Pre-loved · Authenticated · Ready to train
          </p>
          <h1 className="mt-7 text-[2.75rem] leading-[1.02] font-semibold tracking-[-0.045em] text-balance text-stone-950 sm:text-6xl lg:text-7xl">
            Performance wear, <span className="text-rose-600">second lap.</span>
          </h1>
          <p className="mt-6 max-w-xl text-lg leading-relaxed text-pretty text-stone-500">
            Premium activewear for women and men, inspected piece by piece. Pay by card, SOL or AELO — and
            share in the rewards every order creates.
          </p>
          <div className="mt-10 flex flex-col gap-3 sm:flex-row">
            <Link to={paths.home.getHref('shop')} className={buttonClasses({ size: 'lg' })}>
              Shop Collection
              <ArrowRight className="size-4" aria-hidden="true" />
            </Link>
            <BuyTokenButton variant="outline" size="lg" />
          </div>
          <AirdropProgress className="mt-10 max-w-xl" />
          <ul className="mt-10 grid gap-4 sm:grid-cols-3">
            {promises.map(({ icon: Icon, label }) => (
              <li key={label} className="flex items-center gap-2.5 text-sm font-medium text-stone-700">
                <Icon className="size-4.5 text-rose-600" strokeWidth={1.75} aria-hidden="true" />
                {label}
              </li>
            ))}
          </ul>
        </div>
        <HeroArt />
      </div>
    </section>
  );
}

function SectionHeading({
  id,
  eyebrow,
  title,
  children,
}: {
  id: LandingSection;
  eyebrow: string;
  title: string;
  children: ReactNode;
}) {
  return (
    <>
      <p className="text-xs font-semibold tracking-[0.18em] text-rose-600 uppercase">{eyebrow}</p>
      <h2
        id={`${id}-title`}
        className="mt-3 max-w-2xl text-3xl font-semibold tracking-[-0.03em] text-balance text-stone-950 sm:text-[2.75rem] sm:leading-[1.1]"
      >
        {title}
      </h2>
      <div className="mt-5 max-w-2xl text-base leading-relaxed text-pretty text-stone-500 sm:text-lg">
        {children}
      </div>
    </>
  );
}

function Section({
  id,
  tone = 'white',
  children,
}: {
  id: LandingSection;
  tone?: 'white' | 'stone';
  children: ReactNode;
}) {
  return (
    <section
      id={id}
      aria-labelledby={`${id}-title`}
      className={tone === 'stone' ? 'scroll-mt-16 bg-stone-50' : 'scroll-mt-16 bg-white'}
    >
      <div className="mx-auto w-full max-w-7xl px-5 py-20 sm:px-8 sm:py-28">{children}</div>
    </section>
  );
}

/**
 * The landing page (spec §2): tickers, hero with the airdrop progress, shop, rewards and
 * ecosystem. /products/:id renders this same page with that product's modal open: a card pushes
 * the product's URL (shareable), closing goes back to /. The page listens to live catalogue
 * events, so an admin's change shows without a reload.
 */
export function LandingPage() {
  const { id: productId } = useParams();
  const location = useLocation();
  const navigate = useNavigate();
  useLiveEvents({ catalog: [catalogKeys.all] });
  // /#rewards and /#ecosystem sit below the product grid, which grows once it has loaded.
  useHashAnchor();
  const { data: openProduct } = useProduct(productId);
  const addItem = useCartStore((s) => s.addItem);
  const openCart = useCartStore((s) => s.open);

  const closeProduct = () => {
    const state = location.state as Partial<OpenedFromShopState> | null;
    if (state?.openedFromShop) void navigate(-1);
    else void navigate(paths.home.getHref(), { preventScrollReset: true });
  };

  const addToCart = ({ product, size, color }: AddToCartSelection) => {
    addItem({
      productId: product.id,
      title: product.title,
      priceCents: product.priceCents,
      image: product.images[0]?.url ?? '',
      stock: product.quantity,
      selectedSize: size,
      selectedColor: color,
    });
    openCart();
  };

  return (
    <>
      <PageTitle title={productId ? openProduct?.title : undefined} />
      <TickerBoundary>
        <TokenTicker />
      </TickerBoundary>
      <ShippingTicker />
      <Hero />

      <Section id="shop">
        <ProductBrowser
          heading={
            <SectionHeading id="shop" eyebrow="The collection" title="Shop the collection">
              Leggings, sports bras, tanks, shorts, jackets and more — for women and men, every piece checked
              and authenticated before it ships.
            </SectionHeading>
          }
        />
      </Section>

      <Section id="rewards" tone="stone">
        <SectionHeading id="rewards" eyebrow="Holder rewards" title="Rewards, claimed automatically">
          Hold AELO and earn SOL: daily airdrops to the top 50 holders and random airdrops around the clock,
          sent straight to your wallet.
        </SectionHeading>
        <div className="mt-12">
          <RewardsDetails />
        </div>
      </Section>

      <Section id="ecosystem">
        <SectionHeading id="ecosystem" eyebrow="Ecosystem" title="Every order feeds the ecosystem">
          10% of sales goes to buybacks and the liquidity pool, 10% to random holder rewards and 80% to
          operations and growth.
        </SectionHeading>
        <div className="mt-12">
          <EcosystemCards />
        </div>
      </Section>

      {productId ? (
        <Suspense fallback={null}>
          <ProductModal productId={productId} onClose={closeProduct} onAddToCart={addToCart} />
        </Suspense>
      ) : null}
    </>
  );
}

export { LandingPage as Component };

/** Rendered on the server with the first products, the ticker's figures and an opened product. */
export const handle: PageHandle = {
  prefetch: (queryClient, { params }) =>
    Promise.all([
      queryClient.prefetchQuery(productsQueryOptions({})),
      queryClient.prefetchQuery(tokenStatsQueryOptions()),
      params.id ? queryClient.prefetchQuery(productQueryOptions(params.id)) : undefined,
    ]),
};
