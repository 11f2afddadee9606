import { cn } from '../../../../lib/cn';
import { Plus, X } from 'lucide-react';
import { useId, useState, type FormEvent, type KeyboardEvent, type ReactNode } from 'react';
import { Link } from 'react-router';
import {
  categoriesForGender,
  DEFAULT_CATEGORY,
  GENDER_LABELS,
  GENDERS,
  isCategoryOfGender,
  MIN_SHIPPING_WEIGHT_LBS,
  PRODUCT_MESSAGES,
  ProductInputSchema,
  SIZE_GUIDE_MEASURES,
  SIZES,
  sortSizes,
  type Category,
  type Gender,
  type Product,
  type ProductImage,
  type ProductInput,
  type Size,
  type SizeGuideMeasure,
} from '../../../../../common/schemas/product';
import { Alert } from '../../../../components/ui/alert';
import { Button, buttonClasses } from '../../../../components/ui/button';
import { Field } from '../../../../components/ui/field';
import { Input } from '../../../../components/ui/input';
import { Select } from '../../../../components/ui/select';
import { Textarea } from '../../../../components/ui/textarea';
import { errorMessage, isApiError } from '../../../../lib/api-client';
import { Panel } from '../../shared/components/panel';
import { ProductImagesField } from './product-images-field';

type SizeGuideDraft = Record<SizeGuideMeasure, Partial<Record<Size, string>>>;

interface ProductFormState {
  images: ProductImage[];
  title: string;
  description: string;
  price: string;
  originalPrice: string;
  brand: string;
  gender: Gender;
  category: Category;
  sizes: Size[];
  colors: string[];
  quantity: string;
  shippingWeight: string;
  sizeGuide: SizeGuideDraft;
}

type FieldKey =
  | 'images'
  | 'title'
  | 'description'
  | 'price'
  | 'originalPrice'
  | 'brand'
  | 'gender'
  | 'category'
  | 'sizes'
  | 'colors'
  | 'quantity'
  | 'shippingWeight'
  | 'sizeGuide';

/** Server field paths (the input schema's names) -> the form's fields. */
const SERVER_FIELDS: Record<string, FieldKey> = {
  images: 'images',
  title: 'title',
  description: 'description',
  priceCents: 'price',
  originalPriceCents: 'originalPrice',
  brand: 'brand',
  gender: 'gender',
  category: 'category',
  sizes: 'sizes',
  colors: 'colors',
  quantity: 'quantity',
  shippingWeight: 'shippingWeight',
  sizeGuide: 'sizeGuide',
};

const MEASURE_LABELS: Record<SizeGuideMeasure, string> = { waist: 'Waist', hip: 'Hip', bust: 'Bust' };

function emptySizeGuide(): SizeGuideDraft {
  return { waist: {}, hip: {}, bust: {} };
}

function centsToDollars(cents: number): string {
  return (cents / 100).toFixed(2);
}

function initialState(product: Product | undefined): ProductFormState {
  if (!product) {
    return {
      images: [],
      title: '',
      description: '',
      price: '',
      originalPrice: '',
      brand: '',
      gender: 'womens',
      category: DEFAULT_CATEGORY.womens,
      sizes: [],
      colors: [],
      quantity: '',
      shippingWeight: '',
      sizeGuide: emptySizeGuide(),
    };
  }
  const sizeGuide = emptySizeGuide();
  for (const measure of SIZE_GUIDE_MEASURES) {
    product.sizeGuide?.[measure]?.forEach((value, index) => {
      const size = product.sizes[index];
      if (size) sizeGuide[measure][size] = value;
    });
  }
  return {
    images: product.images,
    title: product.title,
    description: product.description,
    price: centsToDollars(product.priceCents),
    originalPrice: product.originalPriceCents === null ? '' : centsToDollars(product.originalPriceCents),
    brand: product.brand,
    gender: product.gender,
    category: product.category,
    sizes: sortSizes(product.sizes),
    colors: product.colors,
    quantity: String(product.quantity),
    shippingWeight: String(product.shippingWeight),
    sizeGuide,
  };
}

function toCents(text: string): number {
  return Math.round(Number(text) * 100);
}

function isNumberText(text: string): boolean {
  return text.trim() !== '' && Number.isFinite(Number(text));
}

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

/** The add / edit product form: every field of the spec, its checks, and the error banner above it. */
export function ProductForm({ product, submitLabel, failureMessage, onSave, cancelTo }: ProductFormProps) {
  const [state, setState] = useState<ProductFormState>(() => initialState(product));
  const [colorDraft, setColorDraft] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [invalid, setInvalid] = useState<Partial<Record<FieldKey, string>>>({});
  const [isSaving, setSaving] = useState(false);
  const ids = { sizes: useId(), colors: useId(), sizeGuide: useId(), banner: useId() };

  const set = <K extends keyof ProductFormState>(key: K, value: ProductFormState[K]) => {
    setState((s) => ({ ...s, [key]: value }));
    if (invalid[key]) {
      setInvalid((prev) => {
        const next = { ...prev };
        delete next[key];
        return next;
      });
    }
  };

  const showError = (message: string, fields: Partial<Record<FieldKey, string>> = {}) => {
    setError(message);
    setInvalid(fields);
    // The banner sits above the form: bring it into view (it is announced as an alert).
    requestAnimationFrame(() =>
      document.getElementById(ids.banner)?.scrollIntoView({ block: 'center', behavior: 'smooth' }),
    );
  };

  const onGenderChange = (gender: Gender) => {
    setState((s) => ({
      ...s,
      gender,
      category:
        isCategoryOfGender(s.category, gender) && s.gender === gender ? s.category : DEFAULT_CATEGORY[gender],
    }));
  };

  const toggleSize = (size: Size) => {
    set(
      'sizes',
      sortSizes(state.sizes.includes(size) ? state.sizes.filter((s) => s !== size) : [...state.sizes, size]),
    );
  };

  const addColor = () => {
    const color = colorDraft.trim();
    setColorDraft('');
    if (color === '') return;
    if (!state.colors.some((c) => c.toLowerCase() === color.toLowerCase()))
      set('colors', [...state.colors, color]);
  };

  const onColorKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      addColor();
    }
  };

  const setGuide = (measure: SizeGuideMeasure, size: Size, value: string) => {
    setState((s) => ({
      ...s,
      sizeGuide: { ...s.sizeGuide, [measure]: { ...s.sizeGuide[measure], [size]: value } },
    }));
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (isSaving) return;
    const s = state;
    const missing: FieldKey[] = [];
    if (s.images.length === 0) missing.push('images');
    if (s.title.trim() === '') missing.push('title');
    if (!isNumberText(s.price)) missing.push('price');
    if (s.brand.trim() === '') missing.push('brand');
    if (!isNumberText(s.quantity)) missing.push('quantity');
    if (!isNumberText(s.shippingWeight)) missing.push('shippingWeight');
    if (missing.length > 0) {
      return showError(PRODUCT_MESSAGES.required, Object.fromEntries(missing.map((f) => [f, 'Required'])));
    }
    if (s.sizes.length === 0) return showError(PRODUCT_MESSAGES.sizes, { sizes: PRODUCT_MESSAGES.sizes });
    if (s.colors.length === 0) return showError(PRODUCT_MESSAGES.colors, { colors: PRODUCT_MESSAGES.colors });

    const sizeGuide: Partial<Record<SizeGuideMeasure, string[]>> = {};
    for (const measure of SIZE_GUIDE_MEASURES) {
      const values = s.sizes.map((size) => (s.sizeGuide[measure][size] ?? '').trim());
      if (values.some((v) => v !== '')) sizeGuide[measure] = values;
    }
    const parsed = ProductInputSchema.safeParse({
      title: s.title,
      description: s.description,
      brand: s.brand,
      priceCents: toCents(s.price),
      originalPriceCents: s.originalPrice.trim() === '' ? null : toCents(s.originalPrice),
      images: s.images.map((image) => image.path),
      quantity: Number(s.quantity),
      sizes: s.sizes,
      colors: s.colors,
      sizeGuide: Object.keys(sizeGuide).length > 0 ? sizeGuide : null,
      gender: s.gender,
      category: s.category,
      shippingWeight: Number(s.shippingWeight),
    });
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const message = issue?.message ?? failureMessage;
      const field = SERVER_FIELDS[String(issue?.path[0] ?? '')];
      return showError(message, field ? { [field]: message } : {});
    }

    setError(null);
    setInvalid({});
    setSaving(true);
    onSave(parsed.data).then(
      () => setSaving(false),
      (err: unknown) => {
        setSaving(false);
        const fields: Partial<Record<FieldKey, string>> = {};
        if (isApiError(err)) {
          for (const [path, text] of Object.entries(err.fields)) {
            const field = SERVER_FIELDS[path.split('.')[0] ?? ''];
            if (field) fields[field] ??= text;
          }
        }
        showError(errorMessage(err, failureMessage), fields);
      },
    );
  };

  const isInvalid = (key: FieldKey) => invalid[key] !== undefined;
  const categories = categoriesForGender(state.gender);

  return (
    <div className="space-y-6">
      <div id={ids.banner}>{error ? <Alert variant="error">{error}</Alert> : null}</div>
      <form noValidate onSubmit={onSubmit} aria-busy={isSaving || undefined} aria-label="Product">
        <fieldset disabled={isSaving} className="grid min-w-0 gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]">
          <div className="min-w-0 space-y-6">
            <Panel>
              <ProductImagesField
                images={state.images}
                onChange={(images) => set('images', images)}
                onError={(message) => (message ? showError(message, { images: message }) : setError(null))}
                isInvalid={isInvalid('images')}
                disabled={isSaving}
              />
            </Panel>

            <Panel title="Details" titleId="product-details">
              <div className="space-y-5">
                <Field label={<Required>Title</Required>} isRequired error={invalid.title}>
                  <Input
                    name="title"
                    value={state.title}
                    onChange={(e) => set('title', e.target.value)}
                    maxLength={200}
                    autoComplete="off"
                  />
                </Field>
                <Field label="Description">
                  <Textarea
                    name="description"
                    value={state.description}
                    onChange={(e) => set('description', e.target.value)}
                    rows={5}
                    maxLength={5000}
                  />
                </Field>
                <Field label={<Required>Brand</Required>} isRequired error={invalid.brand}>
                  <Input
                    name="brand"
                    value={state.brand}
                    onChange={(e) => set('brand', e.target.value)}
                    maxLength={100}
                    autoComplete="off"
                  />
                </Field>
              </div>
            </Panel>

            <Panel title="Variants" titleId="product-variants">
              <div className="space-y-6">
                <div role="group" aria-labelledby={ids.sizes}>
                  <p id={ids.sizes} className="text-sm font-medium text-stone-800">
                    <Required>Sizes</Required>
                  </p>
                  <div className="mt-2 flex flex-wrap gap-2">
                    {SIZES.map((size) => {
                      const isOn = state.sizes.includes(size);
                      return (
                        <button
                          key={size}
                          type="button"
                          aria-pressed={isOn}
                          onClick={() => toggleSize(size)}
                          className={cn(
                            'h-10 min-w-11 rounded-full border px-3 text-sm font-medium transition-colors sm:min-w-12 sm:px-4',
                            isOn
                              ? 'border-stone-950 bg-stone-950 text-white'
                              : isInvalid('sizes')
                                ? 'border-red-400 bg-white text-stone-700'
                                : 'border-stone-300 bg-white text-stone-700 hover:border-stone-900',
                          )}
                        >
                          {size}
                        </button>
                      );
                    })}
                  </div>
                </div>

                <div>
                  <Field label={<Required>Colors</Required>} error={invalid.colors}>
                    <div className="flex gap-2">
                      <Input
                        name="color"
                        value={colorDraft}
                        onChange={(e) => setColorDraft(e.target.value)}
                        onKeyDown={onColorKeyDown}
                        placeholder="e.g. Black"
                        maxLength={50}
                        autoComplete="off"
                        required={false}
                        aria-describedby={ids.colors}
                      />
                      <Button variant="outline" onClick={addColor} className="shrink-0">
                        <Plus className="size-4" aria-hidden="true" />
                        Add Color
                      </Button>
                    </div>
                  </Field>
                  <ul id={ids.colors} aria-label="Colors added" className="mt-3 flex flex-wrap gap-2">
                    {state.colors.map((color) => (
                      <li
                        key={color}
                        className="inline-flex h-8 items-center gap-1 rounded-full bg-stone-100 pr-1 pl-3 text-sm text-stone-800 ring-1 ring-stone-200"
                      >
                        {color}
                        <button
                          type="button"
                          onClick={() =>
                            set(
                              'colors',
                              state.colors.filter((c) => c !== color),
                            )
                          }
                          aria-label={`Remove color ${color}`}
                          className="inline-flex size-6 items-center justify-center rounded-full text-stone-500 hover:bg-stone-200 hover:text-stone-900"
                        >
                          <X className="size-3.5" aria-hidden="true" />
                        </button>
                      </li>
                    ))}
                  </ul>
                </div>

                {state.sizes.length > 0 ? (
                  <details className="group rounded-xl border border-stone-200 open:bg-stone-50/50">
                    <summary className="cursor-pointer list-none rounded-xl px-4 py-3 text-sm font-medium text-stone-800 select-none">
                      <span
                        className="mr-2 inline-block text-stone-400 transition-transform group-open:rotate-90"
                        aria-hidden="true"
                      >
                        ›
                      </span>
                      Size guide <span className="font-normal text-stone-500">(optional, inches)</span>
                    </summary>
                    <div className="overflow-x-auto px-4 pb-4">
                      <table className="text-sm" aria-label="Size guide">
                        <thead>
                          <tr>
                            <th
                              scope="col"
                              className="pr-3 pb-2 text-left text-xs font-medium text-stone-500"
                            >
                              <span className="sr-only">Measure</span>
                            </th>
                            {state.sizes.map((size) => (
                              <th
                                key={size}
                                scope="col"
                                className="px-1 pb-2 text-center text-xs font-medium text-stone-500"
                              >
                                {size}
                              </th>
                            ))}
                          </tr>
                        </thead>
                        <tbody>
                          {SIZE_GUIDE_MEASURES.map((measure) => (
                            <tr key={measure}>
                              <th scope="row" className="pr-3 text-left text-xs font-medium text-stone-600">
                                {MEASURE_LABELS[measure]}
                              </th>
                              {state.sizes.map((size) => (
                                <td key={size} className="px-1 py-1">
                                  <input
                                    value={state.sizeGuide[measure][size] ?? ''}
                                    onChange={(e) => setGuide(measure, size, e.target.value)}
                                    aria-label={`${MEASURE_LABELS[measure]} for size ${size}`}
                                    placeholder="—"
                                    maxLength={20}
                                    className="h-9 w-20 rounded-lg border border-stone-300 bg-white px-2 text-center text-sm focus:border-rose-600 focus:ring-4 focus:ring-rose-600/15 focus:outline-none"
                                  />
                                </td>
                              ))}
                            </tr>
                          ))}
                        </tbody>
                      </table>
                    </div>
                  </details>
                ) : null}
              </div>
            </Panel>
          </div>

          <div className="min-w-0 space-y-6">
            <Panel title="Organization" titleId="product-organization">
              <div className="space-y-5">
                <Field label={<Required>Gender</Required>} isRequired>
                  <Select
                    name="gender"
                    value={state.gender}
                    onChange={(e) => onGenderChange(e.target.value as Gender)}
                  >
                    {GENDERS.map((g) => (
                      <option key={g} value={g}>
                        {GENDER_LABELS[g]}
                      </option>
                    ))}
                  </Select>
                </Field>
                <Field label={<Required>Category</Required>} isRequired error={invalid.category}>
                  <Select
                    name="category"
                    value={state.category}
                    onChange={(e) => set('category', e.target.value as Category)}
                  >
                    {categories.map((c) => (
                      <option key={c.value} value={c.value}>
                        {c.label}
                      </option>
                    ))}
                  </Select>
                </Field>
              </div>
            </Panel>

            <Panel title="Pricing & inventory" titleId="product-pricing">
              <div className="space-y-5">
                <Field label={<Required>Price</Required>} isRequired error={invalid.price} hint="US dollars">
                  <DollarInput name="price" value={state.price} onChange={(v) => set('price', v)} />
                </Field>
                <Field
                  label="Original price"
                  hint="Optional: the struck-through “was” price"
                  error={invalid.originalPrice}
                >
                  <DollarInput
                    name="originalPrice"
                    value={state.originalPrice}
                    onChange={(v) => set('originalPrice', v)}
                    required={false}
                  />
                </Field>
                <Field
                  label={<Required>Quantity</Required>}
                  isRequired
                  error={invalid.quantity}
                  hint={
                    product?.reservedQuantity
                      ? `On hand, including ${product.reservedQuantity} held by open checkouts`
                      : undefined
                  }
                >
                  <Input
                    name="quantity"
                    type="number"
                    inputMode="numeric"
                    min={0}
                    step={1}
                    value={state.quantity}
                    onChange={(e) => set('quantity', e.target.value)}
                  />
                </Field>
                <Field
                  label={<Required>Shipping Weight (lbs)</Required>}
                  isRequired
                  error={invalid.shippingWeight}
                >
                  <Input
                    name="shippingWeight"
                    type="number"
                    inputMode="decimal"
                    min={MIN_SHIPPING_WEIGHT_LBS}
                    step={0.1}
                    value={state.shippingWeight}
                    onChange={(e) => set('shippingWeight', e.target.value)}
                  />
                </Field>
              </div>
            </Panel>
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
    </div>
  );
}

function Required({ children }: { children: ReactNode }) {
  return (
    <>
      {children}
      <span aria-hidden="true" className="ml-0.5 text-rose-600">
        *
      </span>
    </>
  );
}

function DollarInput({
  name,
  value,
  onChange,
  required,
}: {
  name: string;
  value: string;
  onChange: (value: string) => void;
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
        name={name}
        type="number"
        inputMode="decimal"
        min={0}
        step={0.01}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        required={required}
        className="pl-7"
        placeholder="0.00"
      />
    </div>
  );
}
