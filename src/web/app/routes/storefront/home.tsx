import { ArrowRight, Coins, ShieldCheck, Truck } from 'lucide-react';
import { Suspense, useCallback, useEffect, useMemo, useRef, type ReactNode } from 'react';
import { data, type LoaderFunctionArgs, type MetaFunction } from 'react-router';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import { PageTitle } from '#web/components/page-title';
import { buttonClasses } from '#web/components/ui/button';
import { paths, type LandingSection } from '#web/config/paths';
import { useCartStore } from '#web/features/checkout/stores/cart-store';
import { getProduct, productQueryOptions, useProduct } from '#web/features/catalog/api/get-product';
import { availableInSize } from '#common/catalog';
import type { Product } from '#common/schemas/product';
import { productFiltersFromSearch } from '#common/catalog-query';
import { productsQueryOptions } from '#web/features/catalog/api/get-products';
import { tokenStatsQueryOptions } from '#web/features/market/api/get-token-stats';
import type { PageContext } from '#common/page-context';
import { productHead, productTitle, type ProductHead } from '#common/seo';
import { clientData, prefetchQueries, revalidateAfterSubmit } from '#web/app/route-data';
import { EcosystemBody, RewardsBody } from '#web/app/landing-sections';
import { useShopName } from '#web/lib/shop-name';
import { ApiError } from '#web/lib/api-client';
import type { OpenedFromShopState } from '#web/features/catalog/components/product-card';
import { ProductBrowser } from '#web/features/catalog/components/product-browser';
import type { AddToCartSelection } from '#web/features/catalog/components/product-modal';
import { AirdropProgress } from '#web/features/market/components/airdrop-progress';
import { ShippingTicker } from '#web/features/market/components/shipping-ticker';
import { TickerBoundary, TokenTicker } from '#web/features/market/components/token-ticker';
import { BuyTokenButton } from '#web/features/token/components/buy-token-button';
import { catalogKeys } from '#web/features/catalog/api/catalog-keys';
import { useLiveEvents } from '#web/lib/live-events';
import { cn } from '#web/lib/cn';
import { lazyWithPreload } from '#web/lib/lazy-with-preload';
import { useHashAnchor } from '#web/lib/use-hash-anchor';

/** The product modal (gallery, options, size guide) loads when a product is first opened. */
const ProductModal = lazyWithPreload(() =>
  import('#web/features/catalog/components/product-modal').then((m) => m.ProductModal),
);

const promises = [
  { icon: ShieldCheck, label: 'Authenticated by hand' },
  { icon: Truck, label: 'Free shipping over $50' },
  { icon: Coins, label: '10% off with AELO' },
] as const;

/**
 * The landing's opening: one line of brand, the airdrop progress beside it, the promises under it.
 * It stays short so the first row of products is on the first screen of a laptop.
 */
function Hero() {
  return (
    <section
      aria-labelledby="hero-title"
      className="border-b border-stone-100 bg-gradient-to-b from-rose-50/70 to-white"
    >
      <div className="mx-auto grid w-full max-w-7xl gap-5 px-5 py-6 sm:px-8 lg:grid-cols-[minmax(0,1fr)_25rem] lg:items-center lg:gap-12 lg:py-5">
        <div>
          <p className="text-xs font-semibold tracking-[0.16em] text-rose-700 uppercase">
            Pre-loved · Authenticated · Ready to train
          </p>
          <h1
            id="hero-title"
            className="mt-2.5 text-[2rem] leading-[1.05] font-semibold tracking-[-0.04em] text-balance text-stone-950 sm:text-5xl"
          >
            Performance wear, <span className="text-rose-600">second lap.</span>
          </h1>
          <p className="mt-2.5 hidden max-w-xl text-[15px] leading-relaxed text-pretty text-stone-600 sm:block lg:hidden">
            Premium activewear for women and men, inspected piece by piece. Pay by card, SOL or AELO — and
            share in the rewards every order creates.
          </p>
          <div className="mt-4 flex flex-wrap items-center gap-x-6 gap-y-3">
            <div className="flex gap-2.5">
              <Link to={paths.home.getHref('shop')} className={buttonClasses({ size: 'md' })}>
                Shop Collection
                <ArrowRight className="size-4" aria-hidden="true" />
              </Link>
              <BuyTokenButton variant="outline" size="md" />
            </div>
            <ul className="hidden flex-wrap gap-x-5 gap-y-2 2xl:flex">
              {promises.map(({ icon: Icon, label }) => (
                <li key={label} className="flex items-center gap-2 text-sm font-medium text-stone-700">
                  <Icon className="size-4 text-rose-600" strokeWidth={1.75} aria-hidden="true" />
                  {label}
                </li>
              ))}
            </ul>
          </div>
        </div>
        <AirdropProgress className="p-4 sm:p-5" />
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
      <p className="text-xs font-semibold tracking-[0.18em] text-rose-700 uppercase">{eyebrow}</p>
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
      // Below the first screen: laid out and painted only when scrolled near (content-visibility).
      className={cn(
        'scroll-mt-16 [contain-intrinsic-size:auto_900px] [content-visibility:auto]',
        tone === 'stone' ? 'bg-stone-50' : 'bg-white',
      )}
    >
      <div className="mx-auto w-full max-w-7xl px-5 py-20 sm:px-8 sm:py-28">{children}</div>
    </section>
  );
}

/** The rewards and ecosystem sections. */
function BelowTheFold() {
  return (
    <>
      <Section id="rewards" tone="stone">
        <SectionHeading id="rewards" eyebrow="Holder rewards" title="Rewards, claimed automatically">
          Hold AELO and earn SOL: daily airdrops to the top 50 holders and random airdrops around the clock,
          sent straight to your wallet.
        </SectionHeading>
        <div className="mt-12">
          <RewardsBody />
        </div>
      </Section>

      <Section id="ecosystem">
        <SectionHeading id="ecosystem" eyebrow="Ecosystem" title="Every order feeds the ecosystem">
          10% of sales goes to buybacks and the liquidity pool, 10% to random holder rewards and 80% to
          operations and growth.
        </SectionHeading>
        <div className="mt-12">
          <EcosystemBody />
        </div>
      </Section>
    </>
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
  const shopName = useShopName();
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
      // The chosen size's own units when the product tracks its sizes apart.
      stock: availableInSize(product, size),
      selectedSize: size,
      selectedColor: color,
    });
    openCart();
  };

  // The modal's element is kept the same while the product is: a server-rendered modal hydrates
  // once its code is in, and a new element before then (any render of this page: the cart read
  // after hydration, a filter) would make React drop the server's modal and draw it again.
  const handlers = useRef({ closeProduct, addToCart });
  useEffect(() => {
    handlers.current = { closeProduct, addToCart };
  });
  const onClose = useCallback(() => handlers.current.closeProduct(), []);
  const onAddToCart = useCallback(
    (selection: AddToCartSelection) => handlers.current.addToCart(selection),
    [],
  );
  const modal = useMemo(
    () =>
      productId ? (
        <Suspense fallback={null}>
          <ProductModal productId={productId} onClose={onClose} onAddToCart={onAddToCart} />
        </Suspense>
      ) : null,
    [productId, onClose, onAddToCart],
  );

  return (
    <>
      {/* A product URL's title is its search result's title, in the server's HTML and once live. */}
      {productId && openProduct ? <title>{productTitle(openProduct, shopName)}</title> : <PageTitle />}
      <TickerBoundary>
        <TokenTicker />
      </TickerBoundary>
      <ShippingTicker />
      <Hero />

      <section id="shop" aria-labelledby="shop-title" className="scroll-mt-16 bg-white">
        <div className="mx-auto w-full max-w-7xl px-5 pt-6 pb-20 sm:px-8 sm:pb-28 lg:pt-5">
          <ProductBrowser
            heading={
              <>
                <h2
                  id="shop-title"
                  className="text-2xl font-semibold tracking-[-0.03em] text-stone-950 sm:text-[1.75rem]"
                >
                  Shop the collection
                </h2>
                <p className="mt-1 text-sm text-pretty text-stone-600 lg:hidden">
                  Leggings, bras, tanks, shorts and jackets for women and men, each checked before it ships.
                </p>
              </>
            }
          />
        </div>
      </section>

      <BelowTheFold />

      {modal}
    </>
  );
}

export default LandingPage;

/** Rendered on the server with the first products, the ticker's figures and an opened product. */
export async function loader({ params, request, context }: LoaderFunctionArgs<PageContext>) {
  const url = new URL(request.url);
  // A product URL's head (title, description, structured data) and its 404 need the product
  // itself: it is waited for beyond the data budget (a database out of reach then makes the page
  // the 503 page, src/server/modules/pages), and is in the page's data when it came within it.
  const { id } = params;
  const opened = id ? openedProduct(id) : undefined;
  const { data: queries } = await prefetchQueries(
    (client) =>
      Promise.all([
        client.prefetchInfiniteQuery(productsQueryOptions(productFiltersFromSearch(url.searchParams))),
        client.prefetchQuery(tokenStatsQueryOptions()),
        opened?.then(({ product }) => {
          if (product && id) client.setQueryData(productQueryOptions(id).queryKey, product);
        }),
      ]),
    context.markIncomplete,
  );
  if (!opened) return data({ ...queries, product: null });
  const { product, missing } = await opened;
  // A product that does not exist is the landing page with the modal's "not found", as a 404.
  return data(
    { ...queries, product: product ? productHead(product, context.publicUrl, context.shopName) : null },
    { status: missing ? 404 : 200 },
  );
}

/** The product a product URL opens; `missing` when the shop has no such product. */
async function openedProduct(id: string): Promise<{ product: Product | undefined; missing: boolean }> {
  try {
    return { product: await getProduct(id), missing: false };
  } catch (error) {
    return { product: undefined, missing: error instanceof ApiError && error.status === 404 };
  }
}

export const clientLoader = clientData;
export const shouldRevalidate = revalidateAfterSubmit;

/** A product URL's head: its description, canonical URL, Open Graph tags and structured data. */
export const meta: MetaFunction<typeof loader> = ({ data: loaded, matches }) => {
  const product: ProductHead | null | undefined = loaded && 'product' in loaded ? loaded.product : null;
  if (!product) return matches.find((match) => match.id === 'root')?.meta ?? [];
  return [
    { name: 'description', content: product.description },
    { tagName: 'link', rel: 'canonical', href: product.url },
    { property: 'og:type', content: 'product' },
    { property: 'og:title', content: product.title },
    { property: 'og:description', content: product.description },
    { property: 'og:url', content: product.url },
    ...(product.image ? [{ property: 'og:image', content: product.image }] : []),
    { name: 'twitter:card', content: 'summary_large_image' },
    { 'script:ld+json': product.jsonLd },
  ];
};
