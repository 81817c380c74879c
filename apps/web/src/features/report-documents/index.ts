export { DownloadedReportFlag } from './DownloadedReportFlag';
export {
  DownloadReportMenu,
  DOWNLOAD_BUTTON_LABEL,
  DOWNLOADED_HERE,
  type TDownloadReportMenuProps,
  type TDownloadRow,
} from './DownloadReportMenu';
