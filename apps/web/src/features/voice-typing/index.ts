/** What the report editor takes from voice typing (issue 7 contract: H3 → H2). */
export { MicButton } from './MicButton';
