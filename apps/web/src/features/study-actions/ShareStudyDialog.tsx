import CloseIcon from '@mui/icons-material/Close';
import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import Divider from '@mui/material/Divider';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Toolbar from '@mui/material/Toolbar';
import Typography from '@mui/material/Typography';
import { CONFIRMATIONS, isEmail, isValidShareMobile, MOBILE_PREFIX, formatPersonName } from '@radflow/core';
import { useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { useFeedback } from '../../components/feedback/feedback-context';
import { useServerTask } from '../../lib/server-call';
import { DELIVERY_LABELS, MessageDeliveryList } from '../share-page/MessageDeliveryList';
import { reportMessagesQueryKey } from '../share-page/share-page.api';
import type { TStudyDialogProps } from './dialog-props';
import { shareUrlOf } from './share-url';
import { saveReferringDoctor, sendEmail, sendMessage } from './study-actions.api';
import { UserPicker } from './UserPicker';
import { useRoleUsers } from './use-study-actions';

export const INVALID_SHARE_MOBILE = 'Please enter a valid 10 digit mobile number';
export const INVALID_SHARE_EMAIL = 'Please enter a valid e-mail address';

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Box component="section" aria-label={title}>
      <Typography variant="subtitle1" sx={{ mb: 1 }}>
        {title}
      </Typography>
      {children}
    </Box>
  );
}

/**
 * Referring doctor and message sharing, full screen (spec-core §2; §7 report-status/save, send-message,
 * send-email; §5 the mobile pattern): share the study with a referring doctor of the group (confirmed
 * first, spec-core §4), or send its link by SMS/WhatsApp or e-mail (with the PDF once signed off);
 * below, every message of the study with its delivery status (issue 7 §5).
 */
export function ShareStudyDialog({ row, onClose, onChanged }: TStudyDialogProps) {
  const titleId = useId();
  const { confirm, showInfo } = useFeedback();
  const queryClient = useQueryClient();
  const referringDoctors = useRoleUsers('ROLE_REFERRING_DOCTOR');
  const [doctor, setDoctor] = useState<string | null>(row.referringDoctor);
  const [number, setNumber] = useState(row.mobileNumber ?? '');
  const [physician, setPhysician] = useState(formatPersonName(row.referringPhysicianName));
  const [email, setEmail] = useState(row.email ?? '');
  const [numberError, setNumberError] = useState<string | undefined>();
  const [emailError, setEmailError] = useState<string | undefined>();
  const [shared, setShared] = useState({
    link: row.shareLink,
    numbers: row.sharedNumbers,
    emails: row.sharedEmails,
  });
  const task = useServerTask({
    onSuccess: (_answer, { doneText }) => {
      showInfo(doneText);
      onChanged();
    },
    // A failed e-mail is recorded too (FAILED with its reason): refresh either way.
    onSettled: () => void queryClient.invalidateQueries({ queryKey: reportMessagesQueryKey(row.id) }),
  });
  const busy = task.isPending;
  const run = (call: () => Promise<void>, doneText: string) => task.mutate({ call, doneText });

  const saveDoctor = async () => {
    if (!doctor) return;
    if (!(await confirm({ message: CONFIRMATIONS.assignReferringDoctor.text }))) return;
    run(async () => {
      await saveReferringDoctor(null, row.id, doctor);
    }, 'Referring doctor saved');
  };

  const onSendMessage = (event: FormEvent) => {
    event.preventDefault();
    if (!isValidShareMobile(number)) {
      setNumberError(INVALID_SHARE_MOBILE);
      return;
    }
    setNumberError(undefined);
    run(async () => {
      const answer = await sendMessage(row.id, number.trim(), physician.trim());
      setShared({ link: answer.shareLink, numbers: answer.sharedNumbers, emails: answer.sharedEmails });
    }, 'Message sent');
  };

  const onSendEmail = (event: FormEvent) => {
    event.preventDefault();
    if (!isEmail(email.trim())) {
      setEmailError(INVALID_SHARE_EMAIL);
      return;
    }
    setEmailError(undefined);
    run(async () => {
      const answer = await sendEmail(row.id, email.trim());
      setShared({ link: answer.shareLink, numbers: answer.sharedNumbers, emails: answer.sharedEmails });
    }, 'E-mail sent');
  };

  const link = shared.link ? shareUrlOf(shared.link) : null;

  return (
    <Dialog fullScreen open onClose={busy ? undefined : onClose} aria-labelledby={titleId}>
      <AppBar position="sticky" color="default" elevation={1}>
        <Toolbar>
          <Typography id={titleId} variant="h6" sx={{ flex: 1 }}>
            Share study · {row.id} {formatPersonName(row.patientName)}
          </Typography>
          <IconButton edge="end" aria-label="Close" onClick={onClose} disabled={busy}>
            <CloseIcon />
          </IconButton>
        </Toolbar>
      </AppBar>
      <DialogContent>
        <Stack spacing={3} sx={{ maxWidth: 640, mx: 'auto', py: 2 }}>
          <Section title="Referring doctor">
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ alignItems: 'flex-start' }}>
              <Box sx={{ flex: 1, width: '100%' }}>
                <UserPicker
                  label="Referring doctor"
                  options={referringDoctors.emails}
                  value={doctor}
                  onChange={setDoctor}
                  loading={referringDoctors.isPending}
                  disabled={busy}
                />
              </Box>
              <Button
                variant="contained"
                onClick={() => void saveDoctor()}
                disabled={busy || !doctor || doctor === row.referringDoctor}
              >
                Save referring doctor
              </Button>
            </Stack>
          </Section>
          <Divider />
          <Section title="Send by SMS or WhatsApp">
            <Stack component="form" noValidate onSubmit={onSendMessage} spacing={1.5}>
              <TextField
                label="Mobile number"
                value={number}
                onChange={(e) => setNumber(e.target.value)}
                error={Boolean(numberError)}
                helperText={numberError ?? `${MOBILE_PREFIX} is added for you`}
                disabled={busy}
                slotProps={{ htmlInput: { inputMode: 'numeric', maxLength: 10 } }}
              />
              <TextField
                label="Referring physician"
                value={physician}
                onChange={(e) => setPhysician(e.target.value)}
                disabled={busy}
              />
              <Box>
                <Button type="submit" variant="contained" disabled={busy}>
                  Send message
                </Button>
              </Box>
            </Stack>
          </Section>
          <Divider />
          <Section title="Send by e-mail">
            <Stack component="form" noValidate onSubmit={onSendEmail} spacing={1.5}>
              <TextField
                label="E-mail"
                type="email"
                value={email}
                onChange={(e) => setEmail(e.target.value)}
                error={Boolean(emailError)}
                helperText={emailError}
                disabled={busy}
              />
              <Box>
                <Button type="submit" variant="contained" disabled={busy}>
                  Send e-mail
                </Button>
              </Box>
            </Stack>
          </Section>
          <Divider />
          <Section title={DELIVERY_LABELS.title}>
            <MessageDeliveryList reportStatusId={row.id} />
          </Section>
          {(link || shared.numbers.length > 0 || shared.emails.length > 0) && (
            <>
              <Divider />
              <Section title="Shared">
                {link && (
                  <Typography variant="body2">
                    Link:{' '}
                    <Link href={link} target="_blank" rel="noopener">
                      {link}
                    </Link>
                  </Typography>
                )}
                {shared.numbers.length > 0 && (
                  <Typography variant="body2">Numbers: {shared.numbers.join(', ')}</Typography>
                )}
                {shared.emails.length > 0 && (
                  <Typography variant="body2">E-mails: {shared.emails.join(', ')}</Typography>
                )}
              </Section>
            </>
          )}
        </Stack>
      </DialogContent>
    </Dialog>
  );
}

export default ShareStudyDialog;
