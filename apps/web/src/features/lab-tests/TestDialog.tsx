import Autocomplete from '@mui/material/Autocomplete';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Alert from '@mui/material/Alert';
import {
  DEFAULT_LAB_DEPARTMENT,
  LAB_TEST_MESSAGES as M,
  LAB_TEST_TYPES,
  ZLabTestCreate,
  ZLabTestUpdate,
  labTestContextProblem,
  labTestModalities,
  packageMembersProblem,
  type TLabTest,
  type TLabTestType,
} from '@radflow/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useFeedback } from '../../components/feedback/feedback-context';
import {
  LAB_TESTS_QUERY_KEY,
  createLabTest,
  failureText,
  fetchAllLabTests,
  updateLabTest,
} from './lab-tests.api';

export const TEST_DIALOG_LABELS = {
  type: 'Test type',
  modality: 'Modality',
  code: 'Test code',
  name: 'Test name',
  department: 'Department',
  price: 'Price (₹)',
  active: 'Active',
  members: 'Tests in this package',
  save: 'Save',
  cancel: 'Cancel',
} as const;

interface TForm {
  testType: TLabTestType | '';
  labModality: string;
  testCode: string;
  testName: string;
  department: string;
  price: string;
  active: boolean;
  labTestsIds: number[];
}

const formOf = (test: TLabTest | null): TForm =>
  test
    ? {
        testType: test.testType,
        labModality: test.labModality,
        testCode: test.testCode,
        testName: test.testName,
        department: test.department,
        price: String(test.price),
        active: test.active,
        labTestsIds: test.labTestsIds,
      }
    : {
        testType: '',
        labModality: '',
        testCode: '',
        testName: '',
        department: DEFAULT_LAB_DEPARTMENT,
        price: '',
        active: true,
        labTestsIds: [],
      };

/**
 * Create/Edit Test (spec-lab §5 Test): type, modality, code and name required; a new test cannot be
 * inactive; the type is fixed on edit; a PACKAGE picks its NORMAL member tests. Create asks first;
 * edit warns that only new bills see the change.
 */
export function TestDialog(props: {
  /** null: create. */
  test: TLabTest | null;
  showExtraModalityType: boolean;
  labDepartmentList: readonly string[];
  onClose(): void;
  onSaved(test: TLabTest): void;
}) {
  const { confirm, startLoading, showInfo, showError } = useFeedback();
  const editing = props.test !== null;
  const [form, setForm] = useState<TForm>(() => formOf(props.test));
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const all = useQuery({
    queryKey: [...LAB_TESTS_QUERY_KEY, 'all'],
    queryFn: ({ signal }) => fetchAllLabTests(signal),
    enabled: form.testType === 'PACKAGE',
  });
  const candidates = (all.data ?? []).filter((t) => t.testType === 'NORMAL' && t.id !== props.test?.id);
  const set = (patch: Partial<TForm>) => {
    setForm((f) => ({ ...f, ...patch }));
    setProblem(null);
  };
  const modalities = labTestModalities(props.showExtraModalityType);
  // An old test keeps a modality the switch no longer offers.
  const modalityOptions =
    form.labModality && !modalities.includes(form.labModality)
      ? [...modalities, form.labModality]
      : modalities;
  const departments = [
    DEFAULT_LAB_DEPARTMENT,
    ...props.labDepartmentList.filter((d) => d !== DEFAULT_LAB_DEPARTMENT),
    ...(form.department &&
    form.department !== DEFAULT_LAB_DEPARTMENT &&
    !props.labDepartmentList.includes(form.department)
      ? [form.department]
      : []),
  ];

  async function save() {
    const body = {
      ...form,
      testType: form.testType || undefined,
      labModality: form.labModality || undefined,
      price: form.price.trim() === '' ? Number.NaN : Number(form.price),
      labTestsIds: form.testType === 'PACKAGE' ? form.labTestsIds : [],
      attributes: props.test?.attributes ?? {},
    };
    const parsed = editing
      ? ZLabTestUpdate.safeParse({ ...body, id: props.test!.id, version: props.test!.version })
      : ZLabTestCreate.safeParse(body);
    if (!parsed.success) {
      setProblem(parsed.error.issues[0]?.message ?? 'Invalid test');
      return;
    }
    const test = parsed.data;
    const context = labTestContextProblem(test, props, props.test ?? undefined);
    // Until the lab's tests are loaded only the server can tell a member's type.
    const members = packageMembersProblem(
      test,
      all.data ? candidates : test.labTestsIds.map((id) => ({ id, testType: 'NORMAL' as const })),
    );
    if (context ?? members) {
      setProblem(context?.message ?? members);
      return;
    }
    const ok = await confirm({ message: editing ? M.editWarning : M.createConfirm });
    if (!ok) return;
    setBusy(true);
    const stop = startLoading(editing ? M.updating : M.creating);
    try {
      const saved = editing
        ? await updateLabTest({ ...test, id: props.test!.id, version: props.test!.version })
        : await createLabTest(test);
      showInfo(editing ? M.updated : M.created);
      props.onSaved(saved);
    } catch (error) {
      showError(failureText(error));
    } finally {
      stop();
      setBusy(false);
    }
  }

  return (
    <Dialog open onClose={props.onClose} fullWidth maxWidth="sm">
      <DialogTitle>{editing ? 'Edit Test' : 'Create Test'}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ mt: 1 }}>
          {editing && <Alert severity="warning">{M.editWarning}</Alert>}
          <TextField
            select
            required
            label={TEST_DIALOG_LABELS.type}
            value={form.testType}
            disabled={editing}
            onChange={(e) => set({ testType: e.target.value as TLabTestType, labTestsIds: [] })}
          >
            {LAB_TEST_TYPES.map((t) => (
              <MenuItem key={t} value={t}>
                {t}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            select
            required
            label={TEST_DIALOG_LABELS.modality}
            value={form.labModality}
            onChange={(e) => set({ labModality: e.target.value })}
          >
            {modalityOptions.map((m) => (
              <MenuItem key={m} value={m}>
                {m}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            required
            label={TEST_DIALOG_LABELS.code}
            value={form.testCode}
            onChange={(e) => set({ testCode: e.target.value })}
          />
          <TextField
            required
            label={TEST_DIALOG_LABELS.name}
            value={form.testName}
            onChange={(e) => set({ testName: e.target.value })}
          />
          <TextField
            select
            label={TEST_DIALOG_LABELS.department}
            value={form.department}
            onChange={(e) => set({ department: e.target.value })}
          >
            {departments.map((d) => (
              <MenuItem key={d} value={d}>
                {d}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            label={TEST_DIALOG_LABELS.price}
            type="number"
            value={form.price}
            slotProps={{ htmlInput: { min: 0, step: 0.01 } }}
            onChange={(e) => set({ price: e.target.value })}
          />
          {form.testType === 'PACKAGE' && (
            <Autocomplete
              multiple
              options={candidates}
              loading={all.isPending}
              value={candidates.filter((c) => form.labTestsIds.includes(c.id))}
              getOptionLabel={(t) =>
                `${t.labModality}: ${t.testCode} ${t.testName}${t.active ? '' : ' (inactive)'}`
              }
              isOptionEqualToValue={(a, b) => a.id === b.id}
              onChange={(_, picked) => set({ labTestsIds: picked.map((t) => t.id) })}
              renderInput={(params) => <TextField {...params} label={TEST_DIALOG_LABELS.members} />}
            />
          )}
          <FormControlLabel
            control={
              <Switch
                checked={form.active}
                onChange={(e) => {
                  // spec-lab §4: activation changes only on existing tests.
                  if (!editing && !e.target.checked) {
                    setProblem(M.cannotDeactivateOnCreate);
                    return;
                  }
                  set({ active: e.target.checked });
                }}
              />
            }
            label={TEST_DIALOG_LABELS.active}
          />
          {problem && <Alert severity="error">{problem}</Alert>}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={props.onClose}>{TEST_DIALOG_LABELS.cancel}</Button>
        <Button variant="contained" disabled={busy} onClick={() => void save()}>
          {TEST_DIALOG_LABELS.save}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
