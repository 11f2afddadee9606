import { describe, expect, it } from 'vitest';
import { CheckoutInputSchema, validateShippingInfo } from './checkout';

const valid = {
  firstName: 'Ada',
  lastName: 'Lovelace',
  email: 'Ada@Example.com',
  phone: '(555) 123-4567',
  address: '1 Main St <b>',
  city: 'Springfield',
  state: 'IL',
  zipCode: '62701',
  country: 'United States',
};

describe('validateShippingInfo', () => {
  it('names every missing field in the spec message', () => {
    const r = validateShippingInfo({ ...valid, firstName: ' ', city: '', country: undefined });
    expect(r).toMatchObject({
      ok: false,
      message: 'Please fill in all required fields: First Name, City, Country',
    });
  });

  it('checks email, phone and ZIP with the spec messages', () => {
    expect(validateShippingInfo({ ...valid, email: 'ada@' })).toMatchObject({
      message: 'Please enter a valid email address',
    });
    expect(validateShippingInfo({ ...valid, email: `${'a'.repeat(250)}@x.com` })).toMatchObject({
      message: 'Please enter a valid email address',
    });
    expect(validateShippingInfo({ ...valid, phone: '555-1234' })).toMatchObject({
      message: 'Please enter a valid phone number (10 digits)',
    });
    expect(validateShippingInfo({ ...valid, zipCode: '1234' })).toMatchObject({
      message: 'Please enter a valid ZIP code (5 digits or 5+4 format)',
    });
    expect(validateShippingInfo({ ...valid, zipCode: '62701-1234' }).ok).toBe(true);
  });

  it('gives every field its own message at once, the banner naming the first rule broken', () => {
    const r = validateShippingInfo({
      ...valid,
      city: '',
      email: 'ada@',
      phone: '12',
      zipCode: '1',
      state: 'ZZ',
    });
    expect(r).toEqual({
      ok: false,
      message: 'Please fill in all required fields: City',
      fields: {
        city: 'City is required',
        email: 'Please enter a valid email address',
        phone: 'Please enter a valid phone number (10 digits)',
        zipCode: 'Please enter a valid ZIP code (5 digits or 5+4 format)',
        state: 'Please choose a US state',
      },
    });
  });

  it('ships to the 50 states and DC only, keeping the state code', () => {
    expect(validateShippingInfo({ ...valid, state: 'Narnia' })).toMatchObject({
      ok: false,
      message: 'Please choose a US state',
    });
    expect(validateShippingInfo({ ...valid, state: 'PR' }).ok).toBe(false);
    const dc = validateShippingInfo({ ...valid, state: ' dc ' });
    expect(dc.ok && dc.value.state).toBe('DC');
  });

  it('ships to the United States only, keeping its code however it is written', () => {
    expect(validateShippingInfo({ ...valid, country: 'Canada' })).toMatchObject({
      ok: false,
      message: 'We ship to the United States only',
      fields: { country: 'We ship to the United States only' },
    });
    for (const written of ['US', 'usa', 'U.S.A.', ' United States ', 'united states of america']) {
      const r = validateShippingInfo({ ...valid, country: written });
      expect(r.ok && r.value.country, written).toBe('US');
    }
  });

  it('strips < and > on success', () => {
    const r = validateShippingInfo(valid);
    expect(r.ok && r.value.address).toBe('1 Main St b');
    expect(r.ok && r.value.email).toBe('ada@example.com');
  });
});

describe('CheckoutInputSchema', () => {
  it('ignores any amount the browser sends', () => {
    const parsed = CheckoutInputSchema.parse({
      items: [
        {
          productId: '123e4567-e89b-42d3-a456-426614174000',
          size: 'M',
          color: 'Black',
          quantity: 2,
          price: 1,
        },
      ],
      shippingInfo: valid,
      paymentMethod: 'card',
      amount: 0.01,
    });
    expect(parsed).not.toHaveProperty('amount');
    expect(parsed.items[0]).not.toHaveProperty('price');
  });

  it('refuses quantities outside 1 to 5 and mismatched passwords', () => {
    const base = { shippingInfo: valid, paymentMethod: 'card' };
    expect(
      CheckoutInputSchema.safeParse({
        ...base,
        items: [{ productId: '123e4567-e89b-42d3-a456-426614174000', quantity: 6 }],
      }).success,
    ).toBe(false);
    expect(CheckoutInputSchema.safeParse({ ...base, items: [] }).error?.issues[0]?.message).toBe(
      'Your cart is empty',
    );
    const mismatch = CheckoutInputSchema.safeParse({
      ...base,
      items: [{ productId: '123e4567-e89b-42d3-a456-426614174000', quantity: 1 }],
      createAccount: { password: 'long-enough-1', confirmPassword: 'different-22' },
    });
    expect(mismatch.error?.issues[0]?.message).toBe('Passwords do not match');
  });
});
