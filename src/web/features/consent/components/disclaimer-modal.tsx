import { Button } from '#web/components/ui/button';
import { Dialog } from '#web/components/ui/dialog';
import { CONSENT_STORAGE_KEYS, useStoredFlag, writeStoredFlag } from '../hooks/use-stored-flag';

const investmentRisks = [
  'Cryptocurrency is high risk: the value of AELO and SOL can fall sharply or to zero.',
  'Past performance does not predict future results.',
  'Only invest what you can afford to lose.',
  'Do your own research before buying any token.',
] as const;

const productInformation = [
  'All items are pre-loved and carefully authenticated before they ship.',
  'Condition descriptions (New, Like New, Good, Fair) are our honest but subjective assessment.',
  'Colors may vary slightly from the photos depending on your screen.',
  'All sales are final unless an item is significantly misrepresented.',
] as const;

function Points({ title, points }: { title: string; points: readonly string[] }) {
  return (
    <section>
      <h3 className="text-sm font-semibold text-stone-950">{title}</h3>
      <ul className="mt-2.5 space-y-2">
        {points.map((point) => (
          <li key={point} className="flex gap-3 text-sm leading-relaxed text-stone-600">
            <span aria-hidden="true" className="mt-2 size-1.5 shrink-0 rounded-full bg-rose-500" />
            {point}
          </li>
        ))}
      </ul>
    </section>
  );
}

/**
 * Spec §2: a full-screen modal 'Important Disclaimer', shown until acknowledged. The 'I Understand'
 * button, the close icon and Escape (the keyboard's close icon) all acknowledge it, and the
 * acknowledgement (true) is remembered. The backdrop does not close it: it must be read.
 */
export function DisclaimerModal() {
  const accepted = useStoredFlag(CONSENT_STORAGE_KEYS.disclaimerAccepted);
  const acknowledge = () => writeStoredFlag(CONSENT_STORAGE_KEYS.disclaimerAccepted, true);
  return (
    <Dialog
      open={accepted === null || accepted === false}
      onClose={acknowledge}
      closeOnBackdrop={false}
      id="disclaimer"
      title="Important Disclaimer"
      size="lg"
    >
      <div className="space-y-6">
        <p className="text-[15px] leading-relaxed text-stone-700">
          Welcome to Aelo, the shop for pre-loved, authenticated activewear tied to the AELO token. Please
          read this before you shop or buy the token.
        </p>
        <div className="space-y-5 rounded-xl bg-stone-50 p-5 ring-1 ring-stone-200/70">
          <Points title="Investment risks" points={investmentRisks} />
          <Points title="Product information" points={productInformation} />
        </div>
        <Button size="lg" fullWidth onClick={acknowledge}>
          I Understand
        </Button>
      </div>
    </Dialog>
  );
}
