import { createContext, useContext } from 'react';
import { DEFAULT_SHOP_NAME } from '#common/shop';

const ShopNameContext = createContext<string>(DEFAULT_SHOP_NAME);

/** The shop's name (SHOP_NAME) for everything under it: the root layout gives the server's. */
export const ShopNameProvider = ShopNameContext.Provider;

/** The shop's name: the server's SHOP_NAME on every page, the default where none is given (a unit test). */
export function useShopName(): string {
  return useContext(ShopNameContext);
}
