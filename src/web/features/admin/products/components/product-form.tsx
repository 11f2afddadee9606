import { useId, useState } from 'react';
import { FormProvider, useController, useForm } from 'react-hook-form';
import { Link } from 'react-router';
import type { Product, ProductInput } from '#common/schemas/product';
import { Alert } from '#web/components/ui/alert';
import { Button, buttonClasses } from '#web/components/ui/button';
import { errorMessage, isApiError } from '#web/lib/api-client';
import { Panel } from '#web/features/admin/shared/components/panel';
import { ProductDetailsFields } from './product-details-fields';
import {
  productFormDefaults,
  resolveProductForm,
  SERVER_FIELDS,
  type ProductFormValues,
} from './product-form-values';
import { ProductImagesField } from './product-images-field';
import { ProductOrganizationFields, ProductPricingFields } from './product-pricing-fields';
import { ProductVariantsFields } from './product-variants-fields';

export interface ProductFormProps {
  /** The product being edited; undefined for a new one. */
  product?: Product;
  submitLabel: string;
  /** Shown when saving fails and the server gave no message. */
  failureMessage: string;
  /** Saves; rejects with the server's error. */
  onSave: (input: ProductInput) => Promise<unknown>;
  cancelTo: string;
}

/**
 * The add / edit product form (react-hook-form): every field of the spec, checked against the
 * shared ProductInputSchema (product-form-values.ts), the error banner above it, and the server's
 * field errors put back on their inputs.
 */
export function ProductForm({ product, submitLabel, failureMessage, onSave, cancelTo }: ProductFormProps) {
  const form = useForm<ProductFormValues, unknown, ProductInput>({
    defaultValues: productFormDefaults(product),
    resolver: resolveProductForm,
  });
  const images = useController({ control: form.control, name: 'images' });
  /** A message from the server or the image upload; the form's own checks use the root error. */
  const [otherError, setOtherError] = useState<string | null>(null);
  const bannerId = useId();
  const isSaving = form.formState.isSubmitting;
  const banner = otherError ?? form.formState.errors.root?.message ?? null;

  // The banner sits above the form: bring it into view (it is announced as an alert).
  const revealBanner = () =>
    requestAnimationFrame(() =>
      document.getElementById(bannerId)?.scrollIntoView({ block: 'center', behavior: 'smooth' }),
    );

  const save = async (input: ProductInput) => {
    setOtherError(null);
    try {
      await onSave(input);
    } catch (err) {
      if (isApiError(err)) {
        for (const [path, text] of Object.entries(err.fields)) {
          const field = SERVER_FIELDS[path.split('.')[0] ?? ''];
          if (field && !form.getFieldState(field).error) form.setError(field, { message: text });
        }
      }
      setOtherError(errorMessage(err, failureMessage));
      revealBanner();
    }
  };

  const onSubmit = form.handleSubmit(save, () => {
    setOtherError(null);
    revealBanner();
  });

  return (
    <div className="space-y-6">
      <div id={bannerId}>{banner ? <Alert variant="error">{banner}</Alert> : null}</div>
      <FormProvider {...form}>
        <form
          noValidate
          onSubmit={(e) => void onSubmit(e)}
          aria-busy={isSaving || undefined}
          aria-label="Product"
        >
          <fieldset disabled={isSaving} className="grid min-w-0 gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]">
            <div className="min-w-0 space-y-6">
              <Panel>
                <ProductImagesField
                  images={images.field.value}
                  onChange={images.field.onChange}
                  onError={(message) => {
                    setOtherError(message);
                    if (message) {
                      form.setError('images', { message });
                      revealBanner();
                    } else {
                      // A good upload clears the banner, as any earlier message is now stale.
                      form.clearErrors('root');
                    }
                  }}
                  isInvalid={images.fieldState.error !== undefined}
                  disabled={isSaving}
                />
              </Panel>
              <ProductDetailsFields />
              <ProductVariantsFields />
            </div>
            <div className="min-w-0 space-y-6">
              <ProductOrganizationFields />
              <ProductPricingFields
                reservedQuantity={product?.reservedQuantity}
                reservedBySize={product?.reservedBySize}
              />
            </div>
          </fieldset>

          <div className="mt-8 flex flex-col-reverse gap-3 border-t border-stone-200/80 pt-6 sm:flex-row sm:justify-end">
            <Link to={cancelTo} className={buttonClasses({ variant: 'outline' })}>
              Cancel
            </Link>
            <Button type="submit" isLoading={isSaving}>
              {isSaving ? 'Saving...' : submitLabel}
            </Button>
          </div>
        </form>
      </FormProvider>
    </div>
  );
}
