import { parseDestination } from '../forward/destination.js';
import { CommandImagePrinter, DicomImagePrinter, type ImagePrinter } from './printers.js';

/**
 * The center's printer as one setting (for the router's configuration, wired by main.ts):
 * `dicom:AE@host:port` — a DICOM Print SCP; `command:lp -d Reception` — a program given a PDF on
 * its standard input (split on spaces, run without a shell). Empty: no printer. A malformed
 * setting throws, naming the setting, so the router does not start with a printer that cannot work.
 */
export function printerFromSetting(
  setting: string | undefined,
  callingAet: string,
): ImagePrinter | undefined {
  const text = (setting ?? '').trim();
  if (text === '') return undefined;
  const dicom = /^dicom:(.+)@(.+)$/i.exec(text);
  if (dicom) {
    const calledAet = dicom[1]!.trim();
    if (!/^[\x20-\x5b\x5d-\x7e]{1,16}$/.test(calledAet))
      throw new Error(
        `Printer setting '${text}': the AE title must be at most 16 characters, without backslash`,
      );
    let address;
    try {
      address = parseDestination(dicom[2]!);
    } catch {
      throw new Error(`Printer setting '${text}': expected dicom:AE@host:port`);
    }
    if (address.port < 1 || address.port > 65535) throw new Error(`Printer setting '${text}': port 1-65535`);
    return new DicomImagePrinter({ ...address, calledAet, callingAet });
  }
  const command = /^command:(.+)$/i.exec(text);
  if (command) {
    const [program, ...args] = command[1]!.trim().split(/\s+/);
    return new CommandImagePrinter({ command: program!, args });
  }
  throw new Error(`Printer setting '${text}': expected dicom:AE@host:port or command:<program> [args]`);
}
