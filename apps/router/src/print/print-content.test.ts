import { describe, expect, it } from 'vitest';
import { PRINT_MESSAGES, PrintInputError, defaultLayout, parsePrintJob } from './print-content.js';

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0]);
const JPEG = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 0]);

const problem = (input: Parameters<typeof parsePrintJob>[0]) => {
  try {
    parsePrintJob(input);
    return 'accepted';
  } catch (error) {
    expect(error).toBeInstanceOf(PrintInputError);
    return (error as Error).message;
  }
};

describe('the print request (content part and images)', () => {
  it('reads the content as JSON text or an object, with defaults', () => {
    expect(
      parsePrintJob({ images: [PNG, JPEG], content: '{"layout":"2,1","copies":"2","filmSize":"A4"}' }),
    ).toMatchObject({ columns: 2, rows: 1, copies: 2, filmSize: 'A4', orientation: 'PORTRAIT' });
    expect(parsePrintJob({ images: [PNG, PNG, PNG] })).toMatchObject({
      columns: 2,
      rows: 2,
      copies: 1,
      filmSize: undefined,
    });
    expect(parsePrintJob({ images: [PNG], content: { orientation: 'LANDSCAPE' } }).orientation).toBe(
      'LANDSCAPE',
    );
  });

  it('names what is wrong', () => {
    expect(problem({ images: [] })).toBe(PRINT_MESSAGES.noImages);
    expect(problem({ images: [new Uint8Array([1, 2, 3, 4])] })).toBe(PRINT_MESSAGES.notAnImage(1));
    expect(problem({ images: [PNG], content: '{layout' })).toBe(PRINT_MESSAGES.content);
    expect(problem({ images: [PNG], content: '[1]' })).toBe(PRINT_MESSAGES.content);
    expect(problem({ images: [PNG], content: { layout: '7,1' } })).toBe(PRINT_MESSAGES.layout);
    expect(problem({ images: [PNG], content: { layout: '2x2' } })).toBe(PRINT_MESSAGES.layout);
    expect(problem({ images: [PNG], content: { copies: 0 } })).toBe(PRINT_MESSAGES.copies);
    expect(problem({ images: [PNG], content: { copies: 11 } })).toBe(PRINT_MESSAGES.copies);
    expect(problem({ images: [PNG], content: { filmSize: 'LETTER' } })).toBe(PRINT_MESSAGES.filmSize);
    expect(problem({ images: [PNG], content: { orientation: 'UP' } })).toBe(PRINT_MESSAGES.orientation);
    expect(problem({ images: [PNG, PNG, PNG], content: { layout: '1,2' } })).toBe(
      PRINT_MESSAGES.tooMany(2, 3),
    );
  });

  it('picks the smallest near-square grid', () => {
    expect([1, 2, 3, 4, 5, 7, 36].map((n) => defaultLayout(n))).toEqual([
      { columns: 1, rows: 1 },
      { columns: 1, rows: 2 },
      { columns: 2, rows: 2 },
      { columns: 2, rows: 2 },
      { columns: 2, rows: 3 },
      { columns: 3, rows: 3 },
      { columns: 6, rows: 6 },
    ]);
    expect(() => defaultLayout(37)).toThrow(PrintInputError);
  });
});
