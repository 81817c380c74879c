import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import type { TSupportContact } from '@radflow/core';

/** Said when the deployment names no support contact: the group administrator turns add-ons on. */
export const NO_SUPPORT_CONTACT_TEXT = 'Contact your group administrator.';

/**
 * Who to call: the deployment's support phone and e-mail (server SUPPORT_PHONE / SUPPORT_EMAIL,
 * carried by the current user), or — when none is configured, or nobody is signed in — the group
 * administrator. Never a made-up number.
 */
export function SupportContact({ support }: { support: TSupportContact | null | undefined }) {
  const phone = support?.phone ?? null;
  const email = support?.email ?? null;
  if (!phone && !email) return <Typography>{NO_SUPPORT_CONTACT_TEXT}</Typography>;
  return (
    <>
      {phone && (
        <Typography>
          Support phone: <Link href={`tel:${phone.replace(/[^\d+]/g, '')}`}>{phone}</Link>
        </Typography>
      )}
      {email && (
        <Typography>
          Support e-mail: <Link href={`mailto:${email}`}>{email}</Link>
        </Typography>
      )}
    </>
  );
}
