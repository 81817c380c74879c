import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  MESSAGES,
  PASSWORD_MIN_LENGTH,
  isMobileNumber,
  normalizeLoginIdentifier,
  type TSignupRequest,
} from '@radflow/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router';
import { BrandLogo } from '../brand/BrandLogo';
import { SESSION_QUERY_KEY, loadSession } from '../auth/session';
import { requestSignupCode, signUp } from './signup-api';
import { type TFieldErrors, type TSignupDetails, checkSignup, refusalOf } from './signup-form';

const EMPTY: TSignupDetails = { otp: '', groupName: '', adminName: '', email: '', password: '' };

/** A refusal shown above the form; `signIn` links to the login page for a registered number or e-mail. */
interface TNotice {
  text: string;
  signIn?: string;
}

/**
 * /signup (public; issue 26 §4): a new group signs itself up. The mobile number first ('Request
 * OTP', the login's rule and message for a non-mobile value), then the code with the group's and its
 * admin's details; the server creates the group and its admin and signs them in, and the page goes
 * where the server says (the admin's study list with its getting-started card).
 */
export function SignupPage() {
  const [step, setStep] = useState<'mobile' | 'details'>('mobile');
  const [mobileInput, setMobileInput] = useState('');
  const [mobile, setMobile] = useState('');
  const [details, setDetails] = useState<TSignupDetails>(EMPTY);
  const [errors, setErrors] = useState<TFieldErrors>({});
  const [notice, setNotice] = useState<TNotice | null>(null);
  const queryClient = useQueryClient();
  const navigate = useNavigate();

  const requestCode = useMutation({
    mutationFn: (number: string) => requestSignupCode(number).then(() => number),
    onSuccess: (number) => {
      setMobile(number);
      setDetails((d) => ({ ...d, otp: '' }));
      setErrors({});
      setNotice(null);
      setStep('details');
    },
    onError: (error) => {
      const refusal = refusalOf(error);
      if (refusal.field === 'mobile') setErrors({ mobile: refusal.message });
      else setNotice({ text: refusal.message });
    },
  });

  const create = useMutation({
    mutationFn: async (request: TSignupRequest) => {
      const answer = await signUp(request);
      await queryClient.fetchQuery({
        queryKey: SESSION_QUERY_KEY,
        queryFn: ({ signal }) => loadSession(signal),
        staleTime: 0,
      });
      await navigate(answer.redirectTo, { replace: true });
    },
    onError: (error) => {
      const refusal = refusalOf(error);
      if (refusal.status === 409) {
        // The code was used up by this attempt: a corrected form needs a new one.
        setDetails((d) => ({ ...d, otp: '' }));
        const text =
          refusal.field === 'email' ? `${refusal.message} Then request a new code.` : refusal.message;
        setNotice({ text, signIn: refusal.field === 'mobile' ? mobile : details.email });
      } else if (refusal.field && refusal.field in EMPTY) {
        setErrors({ [refusal.field]: refusal.message });
      } else {
        setNotice({ text: refusal.message });
      }
    },
  });
  const busy = requestCode.isPending || create.isPending;

  const submitMobile = () => {
    const number = normalizeLoginIdentifier(mobileInput);
    // spec-core §4 Login's rule and message for 'Request OTP' with a value that is not a mobile.
    if (!isMobileNumber(number)) return setErrors({ mobile: MESSAGES.otpOnlyMobile });
    setErrors({});
    requestCode.mutate(number);
  };

  const submitDetails = () => {
    const checked = checkSignup(mobile, details);
    if (!checked.ok) return setErrors(checked.errors);
    setErrors({});
    setNotice(null);
    create.mutate(checked.request);
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    if (step === 'mobile') submitMobile();
    else submitDetails();
  };

  const field = (name: keyof TSignupDetails) => ({
    name,
    value: details[name],
    onChange: (e: { target: { value: string } }) =>
      setDetails((d) => ({
        ...d,
        [name]: name === 'otp' ? e.target.value.replace(/\D/g, '').slice(0, 6) : e.target.value,
      })),
    error: Boolean(errors[name]),
    helperText: errors[name],
  });

  return (
    <Box component="main" sx={{ flex: 1, display: 'flex', justifyContent: 'center', px: 2, py: 6 }}>
      <Paper
        variant="outlined"
        sx={{ width: '100%', maxWidth: 440, position: 'relative', overflow: 'hidden' }}
      >
        {busy && <LinearProgress sx={{ position: 'absolute', top: 0, left: 0, right: 0 }} />}
        <Box component="form" noValidate onSubmit={onSubmit} sx={{ p: 3.5 }}>
          <Stack spacing={2}>
            <Box sx={{ display: 'flex', justifyContent: 'center' }}>
              <BrandLogo size={40} scope={{ kind: 'public' }} />
            </Box>
            <Typography component="h1" variant="h2" sx={{ textAlign: 'center' }}>
              Create an account for your center/group
            </Typography>
            {notice && (
              <Alert severity="error" role="alert">
                {notice.text}{' '}
                {notice.signIn !== undefined && (
                  <Link component={RouterLink} to={`/login-page/${encodeURIComponent(notice.signIn)}`}>
                    Sign in
                  </Link>
                )}
              </Alert>
            )}
            {step === 'mobile' ? (
              <>
                <Typography variant="body2" color="textSecondary">
                  We send a 6-digit code to your mobile to check it is yours.
                </Typography>
                <TextField
                  label="Mobile number"
                  name="mobile"
                  value={mobileInput}
                  onChange={(e) => setMobileInput(e.target.value)}
                  autoComplete="tel-national"
                  autoFocus
                  error={Boolean(errors.mobile)}
                  helperText={errors.mobile}
                  slotProps={{ htmlInput: { inputMode: 'tel' } }}
                />
                <Button type="submit" variant="contained" disabled={busy}>
                  Request OTP
                </Button>
              </>
            ) : (
              <>
                <Typography variant="body2" color="textSecondary">
                  We sent a 6-digit code by SMS to {mobile}.
                </Typography>
                <TextField
                  label="One-time code"
                  {...field('otp')}
                  autoComplete="one-time-code"
                  autoFocus
                  slotProps={{ htmlInput: { inputMode: 'numeric', maxLength: 6 } }}
                />
                <TextField label="Center or group name" {...field('groupName')} autoComplete="organization" />
                <TextField label="Your name" {...field('adminName')} autoComplete="name" />
                <TextField
                  label="E-mail"
                  type="email"
                  {...field('email')}
                  autoComplete="email"
                  slotProps={{ htmlInput: { autoCapitalize: 'none', spellCheck: false } }}
                />
                <TextField
                  label="Password"
                  type="password"
                  {...field('password')}
                  autoComplete="new-password"
                  helperText={
                    errors.password ?? `At least ${PASSWORD_MIN_LENGTH} characters, not your name or e-mail`
                  }
                />
                <Button type="submit" variant="contained" disabled={busy}>
                  Create account
                </Button>
                <Stack direction="row" sx={{ justifyContent: 'space-between' }}>
                  <Button
                    size="small"
                    color="inherit"
                    disabled={busy}
                    onClick={() => {
                      setStep('mobile');
                      setErrors({});
                      setNotice(null);
                    }}
                  >
                    Change number
                  </Button>
                  <Button size="small" disabled={busy} onClick={() => requestCode.mutate(mobile)}>
                    Resend code
                  </Button>
                </Stack>
              </>
            )}
            <Typography variant="body2" sx={{ textAlign: 'center' }}>
              Already have an account?{' '}
              <Link component={RouterLink} to="/login-page">
                Sign in
              </Link>
            </Typography>
          </Stack>
        </Box>
      </Paper>
    </Box>
  );
}

export default SignupPage;
