/** This script's command line after the script's path. */
const ARGS = process.argv.slice(2);

/** The value after `--name`, or undefined when the flag is absent. */
export function argValue(name: string): string | undefined {
  const at = ARGS.indexOf(name);
  return at >= 0 ? ARGS[at + 1] : undefined;
}

/** Every value after a repeated `--name`, in order. */
export function argValues(name: string): string[] {
  return ARGS.flatMap((arg, i) => (arg === name && ARGS[i + 1] ? [ARGS[i + 1]!] : []));
}

/** Whether the bare flag `--name` was given. */
export function hasFlag(name: string): boolean {
  return ARGS.includes(name);
}
