/** Business constants of spec-core §9 and spec-lab §9. */
export const PRODUCT_NAME = 'Radflow';
export const TABLE_PAGE_SIZE_DEFAULT = 20;
export const TABLE_PAGE_SIZE_OPTIONS = [20, 50] as const;
export const FILTER_DEBOUNCE_MS = 800;
export const AUTO_REFRESH_MS = 25_000;
export const DRAWER_WIDTH = 240;
export const ERROR_SNACKBAR_HIDE_MS = 2_000;
export const INFO_SNACKBAR_HIDE_MS = 1_000;
export const LOADING_AUTO_HIDE_MS = 60_000;
export const MAX_STACKED_NOTIFICATIONS = 3;
export const ERROR_TEXT_MAX_LENGTH = 150;
export const JOB_POLL_INTERVAL_MS = 4_000;
export const JOB_POLL_MAX_TRIES = 200;
export const JOB_FAILED_PREVIOUSLY_WINDOW_MIN = 30;
export const PAYMENT_POLL_MS = 120_000;
export const PAYMENT_REDIRECT_MS = 2_000;
export const CHAT_BEAT_MS = 600_000;
export const CHAT_FIRST_BEAT_MS = 3_000;
export const OFFLINE_AFTER_IDLE_MS = 300_000;
export const TIMELY_SIGN_OFF_MINUTES = 1440;
export const SIGN_OFF_TIME_LIMIT_OPTIONS = [30, 60, 90, 120, 150, 180] as const;
export const MOBILE_PREFIX = '+91';
export const DATE_FORMAT = 'yyyy-MM-dd';
export const TIMESTAMP_FORMAT = 'yyyy-MM-dd HH:mm:ss';
export const RETRY_TRIES = 3;
export const RETRY_DELAY_MS = 1_000;
export const DEPARTMENT_OPTIONS = [
  'NONE',
  'RADIOLOGY',
  'DEPARTMENT OF RADIO-DIAGNOSIS',
  'TRAUMA CENTRE AMU',
] as const;
export const TABLE_KEYS = ['studyList', 'adminStudyList', 'centerReportList', 'doctorSummary'] as const;
export type TTableKey = (typeof TABLE_KEYS)[number];

/** Sign-in protection (not in the spec; chosen for a product that a hospital runs). */
export const OTP_TTL_SECONDS = 300;
export const OTP_MAX_ATTEMPTS = 5;
export const LOGIN_RATE_WINDOW_SECONDS = 900;
export const LOGIN_MAX_FAILURES_PER_IDENTIFIER = 5;
export const LOGIN_MAX_FAILURES_PER_ADDRESS = 30;
export const SESSION_TTL_HOURS = 12;

/** Personal API tokens for DICOM clients (GET /api/user/token) live this long, then a new one is minted. */
export const API_TOKEN_TTL_DAYS = 90;
/** Live tokens a user may hold at once (each DICOM client its own); past this they revoke one first. */
export const API_TOKEN_MAX_PER_USER = 20;
/**
 * Past the free failures (LOGIN_MAX_FAILURES_PER_*), each further failure doubles the wait before
 * the next attempt, from this many seconds up to LOGIN_RATE_WINDOW_SECONDS: a slow-down, not a lock.
 */
export const LOGIN_BACKOFF_BASE_SECONDS = 30;
/**
 * POST /api/user/customer/is-new answers a client address this many look-ups, and a mobile number
 * this many, within LOGIN_RATE_WINDOW_SECONDS (a customer checks their own number once or twice).
 */
export const CUSTOMER_LOOKUP_MAX_PER_ADDRESS = 10;
export const CUSTOMER_LOOKUP_MAX_PER_NUMBER = 5;
/**
 * POST /api/signup/otp sends a client address this many sign-up codes within
 * LOGIN_RATE_WINDOW_SECONDS (a group signs up once; a typo or a lost SMS costs a few). Per number the
 * OTP limit of every code holds (OTP_MAX_REQUESTS_PER_MOBILE).
 */
export const SIGNUP_OTP_MAX_PER_ADDRESS = 5;
/**
 * POST /api/user/generate-otp sends (or refuses for an unknown number) a client address this many
 * sign-in codes within LOGIN_RATE_WINDOW_SECONDS: a 200 or a 404 tells whether a number has an
 * account, so it is limited like the look-up. Per number the OTP limit of every code holds.
 */
export const SIGN_IN_OTP_MAX_PER_ADDRESS = 10;
