export {
  DownloadReportMenu,
  DOWNLOAD_BUTTON_LABEL,
  type TDownloadReportMenuProps,
  type TDownloadRow,
} from './DownloadReportMenu';
