import { FlaskConical } from 'lucide-react';
import { DEMO_LEDGER_TEXTS } from '#common/demo-ledger';
import { Badge } from './ui/badge';

/**
 * The mark of an order paid with test money (crypto on the local demo ledger, a card in Stripe's
 * test mode): nothing was charged and it does not ship. Admin orders, the customer's orders and the
 * guest order page.
 */
export function DemoOrderBadge({ className }: { className?: string }) {
  return (
    <Badge tone="orange" {...(className ? { className } : {})}>
      <FlaskConical className="size-3" aria-hidden="true" />
      {DEMO_LEDGER_TEXTS.orderBadge}
      <span className="sr-only">: {DEMO_LEDGER_TEXTS.orderBadgeTitle.toLowerCase()}</span>
    </Badge>
  );
}
