import type { Category, Gender, Size, SizeGuide } from '#common/schemas/product';
import type { Backdrop, DemoView, Garment } from './demo-images/demo-image-spec';

/**
 * The demo catalogue seeded into an empty database: pre-loved, authenticated activewear across
 * every category of both genders. Brands are invented. Money is in cents; weights in lbs.
 */

export interface DemoColor {
  /** The colour name shoppers pick (stored in products.colors). */
  name: string;
  /** What the generated photo is painted with. */
  hex: string;
  /** Marled fabric: the photo gets a stronger grain. */
  heather?: boolean;
}

export interface DemoProduct {
  /** Stable handle for logs and tests; not stored. */
  slug: string;
  title: string;
  brand: string;
  /** Short word-mark printed on the garment in the photos (defaults to the brand's first word). */
  mark?: string;
  description: string;
  gender: Gender;
  category: Category;
  priceCents: number;
  originalPriceCents?: number;
  sizes: Size[];
  colors: DemoColor[];
  sizeGuide?: SizeGuide;
  shippingWeight: number;
  quantity: number;
  /** How long ago it was listed, so that "newest first" has a meaningful order. */
  listedHoursAgo: number;
  garment: Garment;
  /** Contrast colour for bands, straps and caps. */
  trim?: string;
  backdrop: Backdrop;
  /** 1 to 3 photos: a view of the garment in one of its colours (index into colors, default 0). */
  photos: Array<{ view: DemoView; color?: number }>;
}

// Size guides (inches), per size ------------------------------------------------------------------

type Chart = Record<Size, string>;

export const WOMENS_WAIST: Chart = { XS: '24-25', S: '26-27', M: '28-29', L: '30-32', XL: '33-35' };
export const WOMENS_HIP: Chart = { XS: '34-35', S: '36-37', M: '38-39', L: '40-42', XL: '43-45' };
export const WOMENS_BUST: Chart = { XS: '30-32', S: '32-34', M: '34-36', L: '36-38', XL: '38-40' };
export const MENS_WAIST: Chart = { XS: '27-28', S: '29-31', M: '32-34', L: '35-37', XL: '38-40' };
export const MENS_HIP: Chart = { XS: '33-34', S: '35-37', M: '38-40', L: '41-43', XL: '44-46' };

/** A size guide whose columns line up with `sizes`, as the product stores it. */
export function guide(sizes: Size[], charts: { waist?: Chart; hip?: Chart; bust?: Chart }): SizeGuide {
  const out: SizeGuide = {};
  if (charts.waist) out.waist = sizes.map((s) => charts.waist![s]);
  if (charts.hip) out.hip = sizes.map((s) => charts.hip![s]);
  if (charts.bust) out.bust = sizes.map((s) => charts.bust![s]);
  return out;
}

export const ALL: Size[] = ['XS', 'S', 'M', 'L', 'XL'];
export const XS_L: Size[] = ['XS', 'S', 'M', 'L'];
export const S_XL: Size[] = ['S', 'M', 'L', 'XL'];
export const ONE_SIZE: Size[] = ['M'];

export const AUTHENTICATED =
  'Authenticated by our team: brand labels, care tags, stitching and fabric content checked against retail stock.';
