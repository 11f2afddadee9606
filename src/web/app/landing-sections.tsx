import { useTokenStats } from '#web/features/market/api/get-token-stats';
import { EcosystemCards } from '#web/features/token/components/ecosystem-cards';
import { RewardsDetails } from '#web/features/token/components/rewards-details';

/**
 * The landing page's sections below the product grid (rewards, ecosystem). They are their own
 * chunk: the server renders them, the browser loads their code when they come near the viewport
 * (lazyWhenVisible in routes/storefront/home.tsx). Each reads its own data, so the page around
 * them never passes them new props while they wait.
 */
export function RewardsBody() {
  const { pair } = useTokenStats();
  return <RewardsDetails fdv={pair?.fdv} />;
}

export function EcosystemBody() {
  return <EcosystemCards />;
}
