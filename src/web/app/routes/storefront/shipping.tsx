import { Clock, MapPin, PackageCheck, Truck } from 'lucide-react';
import { Link } from 'react-router';
import { FLAT_SHIPPING_CENTS, FREE_SHIPPING_THRESHOLD_CENTS, formatUsd } from '#common/money';
import { paths } from '#web/config/paths';
import { InfoList, InfoPage, InfoSection } from '#web/app/layouts/info-page';

const highlights = [
  { icon: Clock, label: 'Processing', value: 'Within 48 hours' },
  { icon: Truck, label: 'Delivery', value: 'USPS, 3-5 business days' },
  { icon: PackageCheck, label: 'Tracking', value: 'Within 48 hours' },
  { icon: MapPin, label: 'Ships to', value: 'Continental US' },
] as const;

export default function StorefrontShippingPage() {
  const threshold = formatUsd(FREE_SHIPPING_THRESHOLD_CENTS);
  const belowThreshold = formatUsd(FREE_SHIPPING_THRESHOLD_CENTS - 1);
  return (
    <InfoPage
      eyebrow="Help"
      title="Shipping"
      intro={`Every order ships by USPS. Orders of ${threshold} or more ship free; below that, shipping is a flat ${formatUsd(FLAT_SHIPPING_CENTS)}.`}
    >
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
        {highlights.map(({ icon: Icon, label, value }) => (
          <div key={label} className="rounded-2xl bg-stone-50 p-4 ring-1 ring-stone-200/60 sm:p-5">
            <Icon className="size-5 text-rose-600" strokeWidth={1.75} aria-hidden="true" />
            <dt className="mt-3 text-xs font-medium text-stone-500">{label}</dt>
            <dd className="mt-0.5 text-sm font-semibold text-stone-950">{value}</dd>
          </div>
        ))}
      </dl>

      <div className="mt-14 space-y-12">
        <InfoSection id="processing" title="Processing time">
          <p>
            We pack and hand every order to USPS within 48 hours of your payment being confirmed. Each item is
            checked once more against its listing before it goes in the box.
          </p>
        </InfoSection>

        <InfoSection id="methods" title="Shipping methods">
          <p>
            We ship with USPS to addresses in the continental United States. Delivery takes 3-5 business days
            from the day your order ships. We do not ship outside the continental US at this time.
          </p>
        </InfoSection>

        <InfoSection id="tracking" title="Tracking">
          <p>
            You will receive tracking information within 48 hours once your order ships. If you have an
            account, the tracking number and its latest status also appear with the order under{' '}
            <Link
              to={paths.profile.orders.getHref()}
              className="font-medium text-stone-950 underline decoration-stone-300 underline-offset-2 hover:decoration-rose-600"
            >
              your orders
            </Link>
            .
          </p>
        </InfoSection>

        <InfoSection id="costs" title="Shipping costs">
          <div className="overflow-hidden rounded-2xl ring-1 ring-stone-200">
            <table className="w-full text-left text-[15px]">
              <caption className="sr-only">Shipping cost by order subtotal</caption>
              <thead className="bg-stone-50 text-sm text-stone-500">
                <tr>
                  <th scope="col" className="px-5 py-3 font-medium">
                    Order subtotal
                  </th>
                  <th scope="col" className="px-5 py-3 font-medium">
                    Method
                  </th>
                  <th scope="col" className="px-5 py-3 text-right font-medium">
                    Shipping
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-stone-100 text-stone-800">
                <tr>
                  <th scope="row" className="px-5 py-4 font-medium text-stone-950">
                    {formatUsd(0)} – {belowThreshold}
                  </th>
                  <td className="px-5 py-4">USPS, 3-5 business days</td>
                  <td className="px-5 py-4 text-right font-semibold text-stone-950 tabular-nums">
                    {formatUsd(FLAT_SHIPPING_CENTS)}
                  </td>
                </tr>
                <tr>
                  <th scope="row" className="px-5 py-4 font-medium text-stone-950">
                    {threshold} and over
                  </th>
                  <td className="px-5 py-4">USPS, 3-5 business days</td>
                  <td className="px-5 py-4 text-right font-semibold text-emerald-700">Free</td>
                </tr>
              </tbody>
            </table>
          </div>
          <p className="text-sm text-stone-500">
            Shipping is worked out on your order subtotal and shown before you pay. Paying with AELO takes 10%
            off the total.
          </p>
        </InfoSection>

        <InfoSection id="returns" title="Returns">
          <InfoList
            items={[
              'All sales are final unless an item is significantly misrepresented.',
              'If it is, request a return within 7 days of delivery. The item must be unworn with its tags attached.',
              'The customer pays return shipping.',
              'Refunds are issued within 5 business days of the return reaching us.',
            ]}
          />
        </InfoSection>
      </div>
    </InfoPage>
  );
}
