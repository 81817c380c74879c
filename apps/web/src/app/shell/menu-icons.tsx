import AccountBalanceIcon from '@mui/icons-material/AccountBalanceOutlined';
import AssignmentIcon from '@mui/icons-material/AssignmentOutlined';
import BiotechIcon from '@mui/icons-material/BiotechOutlined';
import DashboardIcon from '@mui/icons-material/DashboardOutlined';
import DescriptionIcon from '@mui/icons-material/DescriptionOutlined';
import ListAltIcon from '@mui/icons-material/ListAlt';
import LogoutIcon from '@mui/icons-material/Logout';
import ManageSearchIcon from '@mui/icons-material/ManageSearch';
import MedicalServicesIcon from '@mui/icons-material/MedicalServicesOutlined';
import PeopleIcon from '@mui/icons-material/PeopleOutlined';
import PersonAddIcon from '@mui/icons-material/PersonAddAlt';
import ReceiptLongIcon from '@mui/icons-material/ReceiptLongOutlined';
import RouterIcon from '@mui/icons-material/RouterOutlined';
import SearchIcon from '@mui/icons-material/Search';
import SellIcon from '@mui/icons-material/SellOutlined';
import SummarizeIcon from '@mui/icons-material/SummarizeOutlined';
import SupportAgentIcon from '@mui/icons-material/SupportAgentOutlined';
import TuneIcon from '@mui/icons-material/Tune';
import VerifiedUserIcon from '@mui/icons-material/VerifiedUserOutlined';
import type { ReactElement } from 'react';

const ICONS: Record<string, ReactElement> = {
  'study-list': <ListAltIcon />,
  'manage-report': <AssignmentIcon />,
  'manage-customer-report': <AssignmentIcon />,
  'manage-hybrid-report': <AssignmentIcon />,
  preference: <TuneIcon />,
  'report-summary': <SummarizeIcon />,
  'report-summary-admin': <SummarizeIcon />,
  'lab-summary': <SummarizeIcon />,
  'advanced-search': <ManageSearchIcon />,
  'report-search': <SearchIcon />,
  'pacs-router': <RouterIcon />,
  'manage-patient': <PeopleIcon />,
  'manage-patient-center': <PeopleIcon />,
  'lab-patients': <PeopleIcon />,
  'tele-pricing': <SellIcon />,
  'tele-invoice': <ReceiptLongIcon />,
  'center-invoices': <ReceiptLongIcon />,
  'platform-invoices': <ReceiptLongIcon />,
  'lab-create-bill': <ReceiptLongIcon />,
  'audit-logins': <VerifiedUserIcon />,
  'manage-template': <DescriptionIcon />,
  'admin-billing': <AccountBalanceIcon />,
  'lab-registration': <PersonAddIcon />,
  'lab-referring-doctor': <MedicalServicesIcon />,
  'lab-test': <BiotechIcon />,
  'stop-viewing': <LogoutIcon />,
  'manage-centers': <MedicalServicesIcon />,
  'manage-users': <PersonAddIcon />,
  'support-inbox': <SupportAgentIcon />,
};

/** The icon beside a menu entry of core `menuForUser`, by its key. */
export function menuIcon(key: string): ReactElement {
  return ICONS[key] ?? <DashboardIcon />;
}
