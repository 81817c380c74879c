/** What the report editor and the study list take from the audio notes feature (issue 7 contract: H3). */
export { AudioRecordingsButton } from './AudioRecordingsButton';
export { AudioRecordingsDialog, type TAudioRecordingsDialogProps } from './AudioRecordingsDialog';
