import { useFormContext } from 'react-hook-form';
import { BRAND_MAX_LENGTH, DESCRIPTION_MAX_LENGTH, TITLE_MAX_LENGTH } from '#common/schemas/product';
import { Field } from '#web/components/ui/field';
import { Input } from '#web/components/ui/input';
import { Textarea } from '#web/components/ui/textarea';
import { Panel } from '#web/features/admin/shared/components/panel';
import type { ProductFormValues } from './product-form-values';
import { RequiredMark } from './required-mark';

/** Title, description and brand. */
export function ProductDetailsFields() {
  const {
    register,
    formState: { errors },
  } = useFormContext<ProductFormValues>();
  return (
    <Panel title="Details" titleId="product-details">
      <div className="space-y-5">
        <Field label={<RequiredMark>Title</RequiredMark>} isRequired error={errors.title?.message}>
          <Input {...register('title')} maxLength={TITLE_MAX_LENGTH} autoComplete="off" />
        </Field>
        <Field label="Description" error={errors.description?.message}>
          <Textarea {...register('description')} rows={5} maxLength={DESCRIPTION_MAX_LENGTH} />
        </Field>
        <Field label={<RequiredMark>Brand</RequiredMark>} isRequired error={errors.brand?.message}>
          <Input {...register('brand')} maxLength={BRAND_MAX_LENGTH} autoComplete="off" />
        </Field>
      </div>
    </Panel>
  );
}
