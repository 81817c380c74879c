/**
 * The weasis:// launch URL (issue 5 §4 openInWeasis): Weasis runs `$dicom:get -w "<manifest URL>"`,
 * which downloads the XML manifest and then every instance it lists. The command is URL-encoded as
 * Weasis' protocol handler expects (spaces as '+', '$' and quotes escaped).
 */
export function buildWeasisLaunchUrl(manifestUrl: string): string {
  const command = `$dicom:get -w "${manifestUrl}"`;
  return `weasis://?${encodeURIComponent(command).replaceAll('%20', '+')}`;
}
