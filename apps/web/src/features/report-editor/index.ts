export { ReportEditor } from './ReportEditor';
export { ReportEditorPanel } from './ReportEditorPanel';
export type { TCaptureImage } from './ReportWorkspace';
