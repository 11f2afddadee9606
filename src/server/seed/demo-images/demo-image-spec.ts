/**
 * What a demo photo shows: the garment, its colours, the backdrop and the view.
 */

export const DEMO_IMAGE_WIDTH = 1200;
export const DEMO_IMAGE_HEIGHT = 1600;

export type Garment =
  | { kind: 'leggings'; length?: 'full' | 'crop' }
  | { kind: 'pants'; style: 'jogger' | 'straight' | 'flare' }
  | { kind: 'shorts'; length: 'short' | 'mid' | 'bike' }
  | { kind: 'bra'; back?: 'racer' | 'scoop' }
  | { kind: 'tank'; cut: 'womens' | 'mens' }
  | { kind: 'top'; sleeves: 'short' | 'long' }
  | { kind: 'hoodie'; zip?: boolean }
  | { kind: 'jacket'; fit: 'womens' | 'mens' }
  | { kind: 'dress' }
  | { kind: 'skirt' }
  | { kind: 'cap' }
  | { kind: 'duffel' }
  | { kind: 'bottle' }
  | { kind: 'belt-bag' };

export type GarmentKind = Garment['kind'];

export type Backdrop = 'stone' | 'mist' | 'blush' | 'sage' | 'sand';

export type DemoView = 'front' | 'back' | 'detail';

export interface DemoImageSpec {
  garment: Garment;
  /** Fabric colour, `#rrggbb`. */
  color: string;
  /** Marled fabric (heather grey and the like): stronger grain. */
  heather?: boolean;
  /** Optional contrast colour for bands, trims and straps. */
  trim?: string;
  brand: string;
  backdrop: Backdrop;
  view: DemoView;
}
