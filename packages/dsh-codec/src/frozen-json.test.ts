import { describe, expect, it } from 'vitest';
import { FrozenJson, isLosslessJson, ownedJson } from 'dsh-codec';

describe('FrozenJson', () => {
  it('copy holds a fresh, deeply frozen copy of lossless JSON and refuses what isLosslessJson refuses', () => {
    const original = { type: 'user', message: { content: [{ text: 'hi' }] } };
    const frozen = FrozenJson.copy(original);
    expect(frozen?.value).toStrictEqual(original);
    expect(frozen?.value).not.toBe(original);
    const value = frozen?.value as { message: { content: object[] } };
    expect(Object.isFrozen(value) && Object.isFrozen(value.message) && Object.isFrozen(value.message.content[0])).toBe(true);
    original.message.content[0] = { text: 'changed later' };
    expect(frozen?.value).toStrictEqual({ type: 'user', message: { content: [{ text: 'hi' }] } });
    const sparse: unknown[] = [1];
    sparse[2] = 2;
    for (const lossy of [{ a: undefined }, sparse, -0, Number.NaN, new Date(0), { n: 1n }]) {
      expect(isLosslessJson(lossy)).toBe(false);
      expect(FrozenJson.copy(lossy)).toBeUndefined();
    }
  });

  it('is() knows only the instances FrozenJson.copy made, not look-alikes', () => {
    const frozen = FrozenJson.copy({ a: 1 });
    expect(FrozenJson.is(frozen)).toBe(true);
    expect(FrozenJson.is({ value: { a: 1 } })).toBe(false);
    expect(FrozenJson.is(Object.create(FrozenJson.prototype as object))).toBe(false);
  });
});

describe('ownedJson', () => {
  it('keeps a FrozenJson value as it is (no second copy) and copies any other lossless value', () => {
    const frozen = FrozenJson.copy({ a: [1, 2] });
    expect(ownedJson(frozen)).toBe(frozen?.value);
    const plain = { a: [1, 2] };
    const copy = ownedJson(plain);
    expect(copy).toStrictEqual(plain);
    expect(copy).not.toBe(plain);
    expect(Object.isFrozen(copy)).toBe(true);
    expect(ownedJson({ a: undefined })).toBeUndefined();
  });

  it("copies and checks again the value of another installed copy's FrozenJson, and never trusts a plain object carrying its mark", () => {
    const brand = Symbol.for('dsh-codec.frozen-json');
    class OtherCopysFrozenJson {
      constructor(readonly value: unknown) {}
      get [brand](): true {
        return true;
      }
    }
    const foreign = new OtherCopysFrozenJson({ a: 1 });
    expect(ownedJson(foreign)).toStrictEqual({ a: 1 });
    expect(ownedJson(foreign)).not.toBe(foreign.value);
    expect(ownedJson(new OtherCopysFrozenJson({ a: Number.NaN }))).toBeUndefined();
    // A plain object with the mark is data with a symbol key: lossy, refused, its `value` not taken.
    expect(ownedJson({ [brand]: true, value: { a: 1 } })).toBeUndefined();
  });
});
