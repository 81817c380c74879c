import { describe, expect, it } from 'vitest';
import { printerFromSetting } from './printer-setting.js';
import { CommandImagePrinter, DicomImagePrinter } from './printers.js';

describe('the printer setting', () => {
  it('names a DICOM printer or a command, or none', () => {
    expect(printerFromSetting('dicom:FILMPRINTER@192.168.1.30:104', 'RADROUTER')).toBeInstanceOf(
      DicomImagePrinter,
    );
    // Configured by the center (not sent by the browser): a host name is fine.
    expect(printerFromSetting('dicom:FILM@printer.local:104', 'RADROUTER')).toBeInstanceOf(DicomImagePrinter);
    expect(printerFromSetting('command:lp -d Reception', 'RADROUTER')).toBeInstanceOf(CommandImagePrinter);
    expect(printerFromSetting('  ', 'RADROUTER')).toBeUndefined();
    expect(printerFromSetting(undefined, 'RADROUTER')).toBeUndefined();
  });

  it('refuses a malformed one, naming it', () => {
    expect(() => printerFromSetting('dicom:FILM@10.0.0.1', 'R')).toThrow(/dicom:AE@host:port/);
    expect(() => printerFromSetting('dicom:FILM@10.0.0.1:99999', 'R')).toThrow(/port 1-65535/);
    expect(() => printerFromSetting('dicom:A\\B@10.0.0.1:104', 'R')).toThrow(/AE title/);
    expect(() => printerFromSetting('lp', 'R')).toThrow(/Printer setting 'lp'/);
  });
});
