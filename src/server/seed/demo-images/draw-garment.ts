import { type Garment } from './demo-image-spec';
import { type Drawing } from './paths';
import { drawLeggings, drawPants, drawShorts, drawSkirt } from './garments-bottoms';
import { drawBra, drawHoodie, drawTank, drawTop } from './garments-tops';
import { drawDress, drawJacket } from './garments-outer';
import { drawBeltBag, drawBottle, drawCap, drawDuffel } from './garments-accessories';

/**
 * The drawing of any garment of the spec.
 */

export function drawGarment(garment: Garment, view: 'front' | 'back'): Drawing {
  switch (garment.kind) {
    case 'leggings':
      return drawLeggings(view, garment.length ?? 'full');
    case 'pants':
      return drawPants(view, garment.style);
    case 'shorts':
      return drawShorts(view, garment.length);
    case 'bra':
      return drawBra(view, garment.back ?? 'racer');
    case 'tank':
      return drawTank(view, garment.cut);
    case 'top':
      return drawTop(view, garment.sleeves);
    case 'hoodie':
      return drawHoodie(view, garment.zip ?? false);
    case 'jacket':
      return drawJacket(view, garment.fit);
    case 'dress':
      return drawDress(view);
    case 'skirt':
      return drawSkirt(view);
    case 'cap':
      return drawCap(view);
    case 'duffel':
      return drawDuffel(view);
    case 'bottle':
      return drawBottle(view);
    case 'belt-bag':
      return drawBeltBag(view);
  }
}
