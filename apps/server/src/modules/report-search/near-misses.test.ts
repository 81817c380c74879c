import { describe, expect, it } from 'vitest';
import { editDistance, editsAllowed, nearMissesOf } from './near-misses.js';

describe('editDistance', () => {
  it('counts inserts, deletes, substitutions and swapped neighbours', () => {
    expect(editDistance('meningioma', 'meningioma', 2)).toBe(0);
    expect(editDistance('menigioma', 'meningioma', 2)).toBe(1);
    expect(editDistance('anuerysm', 'aneurysm', 2)).toBe(1);
    expect(editDistance('hepatocelular', 'hepatocellular', 2)).toBe(1);
    expect(editDistance('pancreatits', 'pancreatic', 2)).toBe(2);
    expect(editDistance('kitten', 'sitting', 5)).toBe(3);
  });

  it('stops at the limit', () => {
    expect(editDistance('pancreatits', 'pancreas', 2)).toBe(3);
    expect(editDistance('a', 'abcdefgh', 2)).toBe(3);
  });

  it('counts letters, not UTF-16 units', () => {
    expect(editDistance('𝒜bc', 'abc', 2)).toBe(1);
    expect(editDistance('मस्तिष्क', 'मस्तिष', 2)).toBe(2);
  });
});

describe('nearMissesOf', () => {
  it('keeps proposals within the edits a word of its length allows, closest first', () => {
    expect(nearMissesOf('pancreatits', ['pancreatitis', 'pancreas', 'peripancreatic'], 3)).toEqual([
      'pancreatitis',
    ]);
    expect(nearMissesOf('osteochondrma', ['osteochondroma', 'osteochondral'], 3)).toEqual([
      'osteochondroma',
      'osteochondral',
    ]);
    expect(nearMissesOf('livr', ['liver', 'lives', 'livid'], 1)).toEqual(['liver']);
  });

  it('widens short words by one edit at most and never words of two letters', () => {
    expect(editsAllowed('ab')).toBe(0);
    expect(editsAllowed('cyst')).toBe(1);
    expect(editsAllowed('lesion')).toBe(2);
    expect(nearMissesOf('cyts', ['cyst', 'cysts', 'cytology'], 3)).toEqual(['cyst', 'cysts']);
  });

  it('proposes nothing when no word is close enough', () => {
    expect(nearMissesOf('xyzzy', ['lazy', 'fizzy'], 3)).toEqual([]);
  });
});
