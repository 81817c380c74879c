import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  type ALL_LAB_MODALITIES,
  BILL_MESSAGES,
  CREATE_STUDY_MODALITIES,
  DEFAULT_LAB_PAYMENT_METHOD,
  EXTRA_MODALITIES,
  LAB_LIMITS,
  LAB_PAYMENT_METHODS,
  changeQuantity,
  duePendingMessage,
  canCreateStudy,
  isLabAdmin,
  printOptionsOf,
  calendarDayIn,
  rupeeText,
  settleLine,
  toRupees,
  type TBill,
  type TCategoryEntry,
  type TLabPaymentMethod,
  type TLabPreferences,
  type TLabTest,
  type TSettlementStatus,
} from '@radflow/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useRef, useState } from 'react';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { ApiError, reportFailure } from '../../api/client';
import { LAB_PREFERENCES_QUERY_KEY, fetchLabPreferences } from '../../api/lab';
import { PageHeader } from '../../components/PageHeader';
import { AllOrOneSelect } from '../../components/table/AllOrOneSelect';
import { useFeedback } from '../../components/feedback/feedback-context';
import { newIdempotencyKey } from '../../lib/idempotency-key';
import { useDebouncedValue } from '../../lib/useDebouncedValue';
import { useSession, type TSession } from '../auth/session';
import { LAB_PATIENTS_QUERY_ROOT, fetchPatient } from '../lab-patients/lab-patients-api';
import { PatientPicker } from '../lab-patients/PatientPicker';
import { ReferringDoctorPicker } from '../lab-patients/ReferringDoctorPicker';
import {
  BILL_LIST_QUERY_KEY,
  BILL_QUERY_KEY,
  createBill,
  fetchBill,
  undoCancelBill,
  updateBill,
} from './bill-api';
import { CancelBillDialog } from './CancelBillDialog';
import {
  NONE,
  billBody,
  formFromBill,
  formTotals,
  hasAppointment,
  lineFromTest,
  localDateTimeText,
  unitPaiseOf,
  type TBillForm,
  type TFormLine,
} from './bill-form';
import { BillLineStudies } from './BillLineStudies';
import { BillTestsTable } from './BillTestsTable';
import { searchBillableTests, TEST_SEARCH_SIZE } from './lab-test-search.api';
import { PartialRefundDialog } from './PartialRefundDialog';
import { PaymentDialog, canAddAmount } from './PaymentDialog';
import { SlotPickerDialog } from './SlotPickerDialog';
import { useBillPrintChooser } from './bill-print';
import { openBillPrint } from '../lab-summary/open-bill-print';

export const BILL_DATE_LABEL = 'Bill Date';
export const TEST_SEARCH_LABEL = 'Search Test';
export const MODALITY_LABEL = 'Modality';
export const DEPARTMENT_LABEL = 'Department';
export const CATEGORY_LABEL = 'Category';
export const PRIORITY_LABEL = 'Priority';
export const DISCOUNT_PERCENT_LABEL = 'Discount %';
export const DISCOUNT_AMOUNT_LABEL = 'Discount Amount';
export const DISCOUNT_REMARK_LABEL = 'Discount Remark';
export const ADVANCE_LABEL = 'Advance Paid';
export const PAYMENT_MODE_LABEL = 'Payment Mode';
export const TRANSACTION_LABEL = 'Transaction Id';
export const SUBMIT_LABEL = 'Submit';
/** spec-lab §5 bill-date confirmation: keep the new date or revert to the original. */
export const BILL_DATE_CONFIRM = {
  title: 'Bill date changed',
  message: 'The bill date was changed. Do you want to keep the new date or revert to the original date?',
  keep: 'Keep New Date',
  revert: 'Revert to Original',
};
export const BILL_MESSAGES_WEB = {
  creating: 'Creating Bill',
  updating: 'Updating Bill',
  created: 'Bill Created',
  updated: 'Bill Updated',
  selectPatient: 'Select a patient',
  addTest: 'Add at least one test',
} as const;

export interface TBillScreenProps {
  /**
   * Called with the saved bill before the screen leaves (awaited), instead of the print-option
   * chooser that opens by default. Under directPrintRisSubmit the bill PDF opens directly instead.
   */
  onSaved?: (bill: TBill) => void | Promise<void>;
}

/** /lab/create-bill/:id? (spec-lab §2 Bill screen): create a bill, or edit the one named by the id. */
export function BillScreen({ onSaved }: TBillScreenProps) {
  const params = useParams();
  const [search] = useSearchParams();
  const id = params.id ? Number(params.id) : null;
  const patientId = Number(search.get('patientId')) || null;
  const { data: session } = useSession();
  const prefs = useQuery({
    queryKey: LAB_PREFERENCES_QUERY_KEY,
    queryFn: ({ signal }) => fetchLabPreferences(signal),
  });
  const bill = useQuery({
    queryKey: BILL_QUERY_KEY(id ?? 0),
    queryFn: ({ signal }) => fetchBill(id!, signal),
    enabled: id !== null,
  });
  const patient = useQuery({
    queryKey: [...LAB_PATIENTS_QUERY_ROOT, 'one', patientId],
    queryFn: ({ signal }) => fetchPatient(patientId!, signal),
    enabled: id === null && patientId !== null,
  });
  const ready =
    session &&
    prefs.data &&
    (id === null || bill.data) &&
    (id !== null || patientId === null || !patient.isPending);
  if (!ready) {
    const failed = prefs.isError || bill.isError;
    return (
      <Box sx={{ p: 4, textAlign: 'center' }}>
        {failed ? (
          <Alert severity="error">The bill could not be loaded.</Alert>
        ) : (
          <CircularProgress aria-label="Loading bill" />
        )}
      </Box>
    );
  }
  return (
    <BillEditor
      key={bill.data ? `${bill.data.id}-${bill.data.version}` : 'new'}
      session={session}
      prefs={prefs.data}
      bill={bill.data ?? null}
      initialPatient={patient.data ?? null}
      onSaved={onSaved}
    />
  );
}

export default BillScreen;

/** The admin preference defaultPaymentModeInRIS (spec-lab §9), read where the group stores it. */
function defaultPaymentMode(session: TSession): TLabPaymentMethod {
  const admin = session.preferences.ADMIN_PREFERENCES as Record<string, unknown>;
  const mode = admin.defaultPaymentModeInRIS;
  return (LAB_PAYMENT_METHODS as readonly unknown[]).includes(mode)
    ? (mode as TLabPaymentMethod)
    : DEFAULT_LAB_PAYMENT_METHOD;
}

function BillEditor({
  session,
  prefs,
  bill,
  initialPatient,
  onSaved,
}: {
  session: TSession;
  prefs: TLabPreferences;
  bill: TBill | null;
  initialPatient: TBillForm['patient'];
  onSaved: TBillScreenProps['onSaved'];
}) {
  const { flags, roles } = session;
  const timeZone = flags.displayTimeZone;
  const admin = isLabAdmin(roles);
  const amu = flags.amuSpecialCustomization;
  const feedback = useFeedback();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const printChooser = useBillPrintChooser();
  const definitions = prefs.LAB_TEST_ATTRIBUTES.data;
  // Categories and priorities exist only under enableRISCategory (the server refuses them otherwise).
  const categoriesOn = flags.enableRISCategory;
  const categories: TCategoryEntry[] = useMemo(
    () =>
      categoriesOn ? prefs.LAB_CATEGORY_PRIORITY.categoriesAndPriorities.filter((c) => !c.disabled) : [],
    [prefs, categoriesOn],
  );
  // A new bill's original date is the minute the screen opened, read once: re-reading the clock on
  // every render made a desk that took a minute over a bill see "Bill date changed".
  const [openedAt] = useState(() => new Date());
  const initialBillDate = localDateTimeText(bill ? bill.billDate : openedAt, timeZone);
  const [form, setForm] = useState<TBillForm>(() =>
    bill
      ? formFromBill(bill, timeZone)
      : {
          patient: initialPatient,
          doctor: null,
          lines: [],
          // spec-lab §9: category GENERAL under the special customization.
          category:
            amu && categories.some((c) => c.type === 'PATIENT_CATEGORY' && c.name === 'GENERAL')
              ? 'GENERAL'
              : NONE,
          priority: NONE,
          discountBy: 'PERCENTAGE',
          discountText: '',
          remark: '',
          advanceText: '',
          paymentMethod: defaultPaymentMode(session),
          transactionId: '',
          billDate: initialBillDate,
        },
  );
  const [problem, setProblem] = useState<string | null>(null);
  const [refunding, setRefunding] = useState<TFormLine | null>(null);
  const [booking, setBooking] = useState<TFormLine | null>(null);
  const [paying, setPaying] = useState(false);
  const [cancelling, setCancelling] = useState(false);
  const inFlight = useRef(false);
  const attempt = useRef<{ body: string; key: string } | null>(null);
  const [busy, setBusy] = useState(false);

  const ctx = { definitions, categories, bill };
  const totals = formTotals(form, ctx);
  const categoryChosen = form.category !== NONE;
  const discountDisabled = amu || categoryChosen;
  const update = (patch: Partial<TBillForm>) => setForm((f) => ({ ...f, ...patch }));
  const setLine = (key: string, patch: Partial<TFormLine>) =>
    setForm((f) => ({ ...f, lines: f.lines.map((l) => (l.key === key ? { ...l, ...patch } : l)) }));

  // ---- test search ----
  const [modality, setModality] = useState<(typeof ALL_LAB_MODALITIES)[number] | ''>('');
  const [department, setDepartment] = useState('');
  const [testText, setTestText] = useState('');
  const settledText = useDebouncedValue(testText.trim(), 300);
  const tests = useQuery({
    queryKey: ['lab', 'all-test', settledText, modality, department],
    queryFn: ({ signal }) =>
      searchBillableTests(
        {
          text: settledText,
          ...(modality ? { labModality: modality } : {}),
          ...(department ? { department } : {}),
          page: 0,
          size: TEST_SEARCH_SIZE,
        },
        signal,
      ),
    staleTime: 30_000,
  });
  const modalities = [...CREATE_STUDY_MODALITIES, ...(flags.showExtraModalityType ? EXTRA_MODALITIES : [])];

  const addTest = (test: TLabTest | null) => {
    if (!test) return;
    if (hasAppointment(form.lines)) {
      setProblem(BILL_MESSAGES.noNewTestsWithAppointment);
      return;
    }
    setProblem(null);
    update({ lines: [...form.lines, lineFromTest(test, definitions)] });
  };

  // ---- line changes (core settlement rules) ----
  const onQuantity = async (line: TFormLine, quantity: number) => {
    const changed = changeQuantity(
      {
        unitPaise: unitPaiseOf(line, definitions),
        quantity: line.quantity,
        refundPaise: line.refundPaise,
        settlementStatus: line.settlementStatus,
      },
      quantity,
    );
    if (changed.confirm && !(await feedback.confirm({ message: changed.confirm }))) return;
    setLine(line.key, {
      quantity: changed.line.quantity,
      settlementStatus: changed.line.settlementStatus,
      refundPaise: changed.line.refundPaise,
    });
  };
  const onSettlement = (line: TFormLine, status: TSettlementStatus) => {
    if (status === 'PARTIAL_REFUND') {
      setRefunding(line);
      return;
    }
    const settled = settleLine(
      { unitPaise: unitPaiseOf(line, definitions), quantity: line.quantity },
      status,
    );
    if (settled.ok) {
      setLine(line.key, {
        settlementStatus: settled.line.settlementStatus,
        refundPaise: settled.line.refundPaise,
        // A cancelled test holds no appointment.
        ...(status === 'CANCEL' ? { appointment: null } : {}),
      });
    }
  };
  const onAttribute = (line: TFormLine, field: 'filmSize' | 'contrastVolume', value: string | null) => {
    // The unit price moves with the attribute: a refund no longer fits it, so the line goes back to full price.
    setLine(line.key, { [field]: value, settlementStatus: 'FULL_PRICE', refundPaise: 0 });
  };

  // ---- submit ----
  const submit = async () => {
    if (inFlight.current) return;
    inFlight.current = true;
    try {
      await submitOnce();
    } finally {
      inFlight.current = false;
    }
  };
  const submitOnce = async () => {
    setProblem(null);
    if (!form.patient) return setProblem(BILL_MESSAGES_WEB.selectPatient);
    if (form.lines.length === 0) return setProblem(BILL_MESSAGES_WEB.addTest);
    if (!totals.ok) {
      if (totals.field === 'advancePaid' && totals.message === BILL_MESSAGES.advanceAboveFinal) {
        await feedback.showInfoDialog({ message: BILL_MESSAGES.advanceAboveFinal });
      } else setProblem(totals.message);
      return;
    }
    let sendForm = form;
    if (!amu && form.billDate !== initialBillDate) {
      const keep = await feedback.confirm({
        title: BILL_DATE_CONFIRM.title,
        message: BILL_DATE_CONFIRM.message,
        confirmLabel: BILL_DATE_CONFIRM.keep,
        cancelLabel: BILL_DATE_CONFIRM.revert,
      });
      if (!keep) {
        sendForm = { ...form, billDate: initialBillDate };
        setForm(sendForm);
      }
    }
    if (totals.totals.duePaise > 0) {
      if (!(await feedback.confirm({ message: duePendingMessage(totals.totals.duePaise) }))) return;
    }
    const body = billBody(sendForm, { ...ctx, timeZone, initialBillDate });
    const json = JSON.stringify(body);
    // A retry of the same bill keeps its key (the server answers the first bill); another bill gets a new one.
    if (attempt.current?.body !== json) attempt.current = { body: json, key: newIdempotencyKey() };
    const stopLoading = feedback.startLoading(bill ? BILL_MESSAGES_WEB.updating : BILL_MESSAGES_WEB.creating);
    setBusy(true);
    let saved: TBill;
    try {
      saved = bill
        ? await updateBill({ ...body, id: bill.id, version: bill.version })
        : await createBill(body, attempt.current.key);
    } catch (error) {
      if (error instanceof ApiError && error.status === 409) {
        // A stale version or a slot filled meanwhile: said plainly, the input stays as typed.
        setProblem(`${error.message} Your changes are kept on this screen.`);
      } else if (error instanceof ApiError) {
        setProblem(error.message);
        if (error.status !== 400) reportFailure(error);
      } else setProblem(String(error));
      return;
    } finally {
      stopLoading();
      setBusy(false);
    }
    feedback.showInfo(bill ? BILL_MESSAGES_WEB.updated : BILL_MESSAGES_WEB.created);
    void queryClient.invalidateQueries({ queryKey: BILL_LIST_QUERY_KEY });
    queryClient.removeQueries({ queryKey: BILL_QUERY_KEY(saved.id) });
    if (flags.directPrintRisSubmit) void openBillPrint(saved.id, feedback.showError);
    else if (onSaved) await onSaved(saved);
    else await printChooser.choose(saved.id, printOptionsOf(saved.labBillTests));
    void navigate(amu ? '/lab/create-bill' : '/lab/registration');
  };

  // spec-lab §4: cancel unless cancelled; Undo Cancel after the confirmation. The screen then shows
  // the bill as the server has it (a new version), so the form starts again from it.
  const showBill = (next: TBill) => {
    queryClient.setQueryData(BILL_QUERY_KEY(next.id), next);
    void queryClient.invalidateQueries({ queryKey: BILL_LIST_QUERY_KEY });
  };
  const undoCancel = async () => {
    if (!bill || !(await feedback.confirm({ message: BILL_MESSAGES.undoCancelConfirm }))) return;
    try {
      await undoCancelBill(bill.id);
      showBill(await fetchBill(bill.id));
    } catch (error) {
      setProblem(error instanceof ApiError ? error.message : String(error));
    }
  };

  const money = (paise: number) => `₹${rupeeText(paise)}`;
  const summary = totals.ok ? totals.totals : null;
  const patientCategories = [
    { name: NONE, discount: 0 },
    ...categories.filter((c) => c.type === 'PATIENT_CATEGORY'),
  ];
  const priorities = [{ name: NONE }, ...categories.filter((c) => c.type === 'PRIORITY')];

  return (
    <Box component="section">
      <PageHeader
        title={bill ? `Edit Bill ${bill.invoiceNumber}` : 'Create Bill'}
        actions={
          bill && (
            <>
              <Chip label={bill.status} data-testid="bill-status" />
              {canAddAmount(bill) && (
                <Button variant="outlined" onClick={() => setPaying(true)}>
                  Add Amount
                </Button>
              )}
              {bill.status === 'CANCELLED' ? (
                <Button variant="outlined" onClick={() => void undoCancel()}>
                  Undo Cancel
                </Button>
              ) : (
                <Button variant="outlined" color="error" onClick={() => setCancelling(true)}>
                  Cancel Bill
                </Button>
              )}
            </>
          )
        }
      />
      <Paper sx={{ p: 2 }}>
        <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap', mb: 2 }}>
          {!amu && (
            <TextField
              label={BILL_DATE_LABEL}
              type="datetime-local"
              value={form.billDate}
              disabled={!admin}
              onChange={(e) => update({ billDate: e.target.value })}
              slotProps={{ inputLabel: { shrink: true } }}
            />
          )}
          <Box sx={{ minWidth: 320, flex: 1 }}>
            <PatientPicker value={form.patient} onChange={(patient) => update({ patient })} />
          </Box>
          <Box sx={{ minWidth: 280, flex: 1 }}>
            <ReferringDoctorPicker
              label="Referring Doctor"
              value={form.doctor}
              onChange={(doctor) => update({ doctor })}
            />
          </Box>
        </Box>
        <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap', mb: 2 }}>
          <AllOrOneSelect
            label={MODALITY_LABEL}
            value={modality}
            options={modalities}
            onChange={setModality}
            minWidth={140}
          />
          <AllOrOneSelect
            label={DEPARTMENT_LABEL}
            value={department}
            options={prefs.LAB_DEPARTMENTS.labDepartmentList}
            onChange={setDepartment}
            minWidth={160}
          />
          <Autocomplete
            options={tests.data ?? []}
            value={null}
            onChange={(_, test) => addTest(test)}
            inputValue={testText}
            onInputChange={(_, next, reason) => setTestText(reason === 'reset' ? '' : next)}
            filterOptions={(options) => options}
            getOptionLabel={(t) => `${t.labModality}: ${t.testCode} ${t.testName} (₹${t.price})`}
            isOptionEqualToValue={(a, b) => a.id === b.id}
            loading={tests.isFetching}
            noOptionsText="No test found"
            renderInput={(params) => <TextField {...params} label={TEST_SEARCH_LABEL} />}
            sx={{ minWidth: 320, flex: 1 }}
          />
        </Box>
        {flags.enableRISCategory && (
          <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap', mb: 2 }}>
            <TextField
              select
              label={CATEGORY_LABEL}
              value={form.category}
              onChange={(e) => update({ category: e.target.value })}
              sx={{ minWidth: 180 }}
            >
              {patientCategories.map((c) => (
                <MenuItem key={c.name} value={c.name}>
                  {c.name === NONE ? 'None' : `${c.name} (${c.discount}%)`}
                </MenuItem>
              ))}
            </TextField>
            <TextField
              select
              label={PRIORITY_LABEL}
              value={form.priority}
              onChange={(e) => update({ priority: e.target.value })}
              sx={{ minWidth: 180 }}
            >
              {priorities.map((p) => (
                <MenuItem key={p.name} value={p.name}>
                  {p.name === NONE ? 'None' : p.name}
                </MenuItem>
              ))}
            </TextField>
          </Box>
        )}
        <BillTestsTable
          lines={form.lines}
          definitions={definitions}
          billStatus={bill?.status ?? null}
          admin={admin}
          appointments={flags.appointmentSupportRIS}
          timeZone={timeZone}
          onQuantity={(line, q) => void onQuantity(line, q)}
          onSettlement={onSettlement}
          onAttribute={onAttribute}
          onAppointment={setBooking}
          onRemove={(line) => update({ lines: form.lines.filter((l) => l.key !== line.key) })}
        />
        {bill && session.user.centerId !== null && canCreateStudy(roles) && (
          <BillLineStudies
            bill={bill}
            centerId={session.user.centerId}
            withoutDialog={flags.createPatientInRisWithoutShowingDialog}
          />
        )}
        <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap', mb: 2 }}>
          <TextField
            label={DISCOUNT_PERCENT_LABEL}
            type="number"
            disabled={discountDisabled}
            value={
              form.discountBy === 'PERCENTAGE' && !categoryChosen
                ? form.discountText
                : summary
                  ? String(summary.discountBasisPoints / 100)
                  : ''
            }
            onChange={(e) => update({ discountBy: 'PERCENTAGE', discountText: e.target.value })}
            slotProps={{ htmlInput: { min: 0, max: LAB_LIMITS.discountPercentMax, step: 0.01 } }}
          />
          <TextField
            label={DISCOUNT_AMOUNT_LABEL}
            type="number"
            disabled={discountDisabled}
            value={
              form.discountBy === 'AMOUNT' && !categoryChosen
                ? form.discountText
                : summary
                  ? String(toRupees(summary.discountPaise))
                  : ''
            }
            onChange={(e) => update({ discountBy: 'AMOUNT', discountText: e.target.value })}
            slotProps={{ htmlInput: { min: 0, step: 0.01 } }}
          />
          <TextField
            label={DISCOUNT_REMARK_LABEL}
            value={form.remark}
            onChange={(e) => update({ remark: e.target.value })}
            slotProps={{ htmlInput: { maxLength: LAB_LIMITS.remarkLength } }}
            sx={{ flex: 1, minWidth: 220 }}
          />
        </Box>
        <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap', mb: 2, alignItems: 'center' }}>
          {bill ? (
            <TextField label={ADVANCE_LABEL} value={bill.advancePaid} disabled />
          ) : (
            <TextField
              label={ADVANCE_LABEL}
              type="number"
              value={form.advanceText}
              onChange={(e) => update({ advanceText: e.target.value })}
              slotProps={{ htmlInput: { min: 0, step: 0.01 } }}
            />
          )}
          <TextField
            select
            label={PAYMENT_MODE_LABEL}
            value={form.paymentMethod}
            onChange={(e) => update({ paymentMethod: e.target.value as TLabPaymentMethod })}
            sx={{ minWidth: 140 }}
          >
            {LAB_PAYMENT_METHODS.map((m) => (
              <MenuItem key={m} value={m}>
                {m}
              </MenuItem>
            ))}
          </TextField>
          {!bill && (
            <TextField
              label={TRANSACTION_LABEL}
              value={form.transactionId}
              onChange={(e) => update({ transactionId: e.target.value })}
              slotProps={{ htmlInput: { maxLength: 100 } }}
            />
          )}
        </Box>
        <Box
          component="dl"
          aria-label="Bill summary"
          sx={{
            display: 'grid',
            gridTemplateColumns: 'max-content max-content',
            columnGap: 3,
            rowGap: 0.5,
            m: 0,
          }}
        >
          {(
            [
              ['Total Amount', 'total', summary?.totalPaise],
              ['Discount', 'discount', summary?.discountPaise],
              ['Advance Paid', 'advance', summary?.advancePaidPaise],
              ['Net Payable', 'net', summary?.finalPaise],
              ['Due', 'due', summary?.duePaise],
            ] as const
          ).map(([label, key, paise]) => (
            <Box key={key} sx={{ display: 'contents' }}>
              <Typography component="dt">{label}</Typography>
              <Typography component="dd" sx={{ m: 0, fontWeight: 600 }} data-testid={`bill-summary-${key}`}>
                {paise === undefined ? '—' : money(paise)}
              </Typography>
            </Box>
          ))}
        </Box>
        {!totals.ok && (
          <Alert severity="warning" sx={{ mt: 2 }}>
            {totals.message}
          </Alert>
        )}
        {problem && (
          <Alert severity="error" sx={{ mt: 2 }} data-testid="bill-problem">
            {problem}
          </Alert>
        )}
        <Box sx={{ mt: 2, display: 'flex', justifyContent: 'flex-end' }}>
          <Button
            variant="contained"
            onClick={() => void submit()}
            disabled={busy || bill?.status === 'CANCELLED'}
          >
            {SUBMIT_LABEL}
          </Button>
        </Box>
      </Paper>
      {refunding && (
        <PartialRefundDialog
          line={{ ...refunding, unitPaise: unitPaiseOf(refunding, definitions) }}
          onClose={() => setRefunding(null)}
          onRefund={(refundPaise) => {
            setLine(refunding.key, { settlementStatus: 'PARTIAL_REFUND', refundPaise });
            setRefunding(null);
          }}
        />
      )}
      {booking && (
        <SlotPickerDialog
          modality={booking.labModality}
          testName={booking.testName}
          timeZone={timeZone}
          initialDate={calendarDayIn(new Date(), timeZone)}
          current={booking.appointment}
          onClose={() => setBooking(null)}
          onChoose={(appointment) => {
            setLine(booking.key, { appointment });
            setBooking(null);
          }}
        />
      )}
      {paying && bill && (
        <PaymentDialog
          bill={bill}
          onClose={() => setPaying(false)}
          onPaid={(paid) => {
            setPaying(false);
            showBill(paid);
          }}
        />
      )}
      {cancelling && bill && (
        <CancelBillDialog
          bill={bill}
          onClose={() => setCancelling(false)}
          onCancelled={(cancelled) => {
            setCancelling(false);
            showBill(cancelled);
          }}
        />
      )}
      {printChooser.dialog}
    </Box>
  );
}
