import { useFormContext, type UseFormRegisterReturn } from 'react-hook-form';
import {
  categoriesForGender,
  DEFAULT_CATEGORY,
  GENDER_LABELS,
  GENDERS,
  MAX_QUANTITY,
  MAX_SHIPPING_WEIGHT_LBS,
  MIN_SHIPPING_WEIGHT_LBS,
  type Gender,
  type Product,
} from '#common/schemas/product';
import { Field } from '#web/components/ui/field';
import { Input } from '#web/components/ui/input';
import { Select } from '#web/components/ui/select';
import { Panel } from '#web/features/admin/shared/components/panel';
import type { ProductFormValues } from './product-form-values';
import { ProductSizeStockFields } from './product-size-stock-fields';
import { RequiredMark } from './required-mark';

/** Gender and category (the category list follows the gender). */
export function ProductOrganizationFields() {
  const {
    register,
    setValue,
    watch,
    formState: { errors },
  } = useFormContext<ProductFormValues>();
  const categories = categoriesForGender(watch('gender'));
  return (
    <Panel title="Organization" titleId="product-organization">
      <div className="space-y-5">
        <Field label={<RequiredMark>Gender</RequiredMark>} isRequired>
          <Select
            {...register('gender', {
              // Another gender has other categories: start from its default one.
              onChange: (e: { target: { value: Gender } }) =>
                setValue('category', DEFAULT_CATEGORY[e.target.value]),
            })}
          >
            {GENDERS.map((g) => (
              <option key={g} value={g}>
                {GENDER_LABELS[g]}
              </option>
            ))}
          </Select>
        </Field>
        <Field label={<RequiredMark>Category</RequiredMark>} isRequired error={errors.category?.message}>
          <Select {...register('category')}>
            {categories.map((c) => (
              <option key={c.value} value={c.value}>
                {c.label}
              </option>
            ))}
          </Select>
        </Field>
      </div>
    </Panel>
  );
}

/** Price, original price, quantity on hand (per size when tracked apart) and shipping weight. */
export function ProductPricingFields({
  reservedQuantity,
  reservedBySize,
}: {
  reservedQuantity: number | undefined;
  reservedBySize?: Product['reservedBySize'];
}) {
  const {
    register,
    watch,
    formState: { errors },
  } = useFormContext<ProductFormValues>();
  const isPerSize = watch('stockPerSize');
  return (
    <Panel title="Pricing & inventory" titleId="product-pricing">
      <div className="space-y-5">
        <Field
          label={<RequiredMark>Price</RequiredMark>}
          isRequired
          error={errors.price?.message}
          hint="US dollars"
        >
          <DollarInput registration={register('price')} />
        </Field>
        <Field
          label="Original price"
          hint="Optional: the struck-through “was” price"
          error={errors.originalPrice?.message}
        >
          <DollarInput registration={register('originalPrice')} required={false} />
        </Field>
        <Field
          label={<RequiredMark>Quantity</RequiredMark>}
          isRequired
          error={errors.quantity?.message}
          hint={
            reservedQuantity ? `On hand, including ${reservedQuantity} held by open checkouts` : undefined
          }
        >
          <Input
            {...register('quantity')}
            type="number"
            inputMode="numeric"
            min={0}
            max={MAX_QUANTITY}
            step={1}
            readOnly={isPerSize}
            className={isPerSize ? 'bg-stone-50 text-stone-600' : undefined}
          />
        </Field>
        <ProductSizeStockFields held={reservedBySize} />
        <Field
          label={<RequiredMark>Shipping Weight (lbs)</RequiredMark>}
          isRequired
          error={errors.shippingWeight?.message}
        >
          <Input
            {...register('shippingWeight')}
            type="number"
            inputMode="decimal"
            min={MIN_SHIPPING_WEIGHT_LBS}
            max={MAX_SHIPPING_WEIGHT_LBS}
            step={0.1}
          />
        </Field>
      </div>
    </Panel>
  );
}

function DollarInput({
  registration,
  required,
}: {
  registration: UseFormRegisterReturn;
  required?: boolean;
}) {
  return (
    <div className="relative">
      <span
        className="pointer-events-none absolute top-1/2 left-3.5 -translate-y-1/2 text-sm text-stone-500"
        aria-hidden="true"
      >
        $
      </span>
      <Input
        {...registration}
        type="number"
        inputMode="decimal"
        min={0}
        step={0.01}
        required={required}
        className="pl-7"
        placeholder="0.00"
      />
    </div>
  );
}
