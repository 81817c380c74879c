import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Switch from '@mui/material/Switch';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import {
  REFERRING_DOCTOR_MESSAGES as M,
  type REFERRING_DOCTOR_SORTS,
  type TReferringDoctor,
  type TReferringDoctorSearchInput,
  referringDoctorStatusConfirm,
} from '@radflow/core';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { PageHeader } from '../../components/PageHeader';
import { useConfirm, useSnackbar } from '../../components/feedback/feedback-context';
import { useDebouncedValue } from '../../lib/useDebouncedValue';
import { LabTable, type TLabColumn, type TLabPaging } from './LabTable';
import { ReferringDoctorDialog } from './ReferringDoctorDialog';
import { LAB_DOCTORS_QUERY_ROOT, saveReferringDoctor, searchReferringDoctors } from './lab-patients-api';
import { SEARCH_DEBOUNCE_MS } from './lab-form';

type TSort = (typeof REFERRING_DOCTOR_SORTS)[number];
const COLUMNS: ReadonlyArray<TLabColumn<TSort>> = [
  { label: 'Name', sort: 'name' },
  { label: 'Mobile' },
  { label: 'Department', sort: 'department' },
  { label: 'Active' },
  { label: 'Actions', align: 'right' },
];
const ACTIVE_FILTERS = { all: 'All', active: 'Active', inactive: 'Inactive' } as const;
type TActiveFilter = keyof typeof ACTIVE_FILTERS;

/**
 * /lab/edit-referring-doctor (spec-lab §2): the lab's referring doctors with a search, the active
 * toggle (confirmed, naming the state it goes to; 'Error updating the status' when refused),
 * Create Referring Doctor and Edit on each row.
 */
export function EditReferringDoctorPage() {
  const [text, setText] = useState('');
  const [activeFilter, setActiveFilter] = useState<TActiveFilter>('all');
  const [paging, setPaging] = useState<TLabPaging<TSort>>({
    page: 0,
    size: 20,
    orderingCriteria: 'name',
    sortOrder: 'ASC',
  });
  const [editing, setEditing] = useState<TReferringDoctor | 'new' | null>(null);
  const settled = useDebouncedValue(text.trim(), SEARCH_DEBOUNCE_MS);
  const body: TReferringDoctorSearchInput = {
    ...(settled ? { mobileOrName: settled } : {}),
    ...(activeFilter === 'all' ? {} : { active: activeFilter === 'active' }),
    criteria: paging,
  };
  const query = useQuery({
    queryKey: [...LAB_DOCTORS_QUERY_ROOT, 'list', body],
    queryFn: ({ signal }) => searchReferringDoctors(body, signal),
    placeholderData: keepPreviousData,
  });
  const queryClient = useQueryClient();
  const confirm = useConfirm();
  const { showError } = useSnackbar();
  const doctors = query.data?.content ?? [];

  const toggle = async (doctor: TReferringDoctor) => {
    const next = !doctor.active;
    if (!(await confirm({ message: referringDoctorStatusConfirm(next) }))) return;
    try {
      await saveReferringDoctor({
        id: doctor.id,
        version: doctor.version,
        name: doctor.name,
        mobileNumber: doctor.mobileNumber,
        department: doctor.department,
        active: next,
      });
    } catch {
      showError(M.statusError);
    }
    await queryClient.invalidateQueries({ queryKey: LAB_DOCTORS_QUERY_ROOT });
  };

  return (
    <Box component="section">
      <PageHeader
        title="Edit Referring Doctor"
        actions={
          <Button variant="contained" onClick={() => setEditing('new')}>
            Create Referring Doctor
          </Button>
        }
      />
      <Box
        sx={{ display: 'flex', gap: 1.5, flexWrap: 'wrap', mb: 2 }}
        role="search"
        aria-label="Doctor search"
      >
        <TextField
          size="small"
          label="Name or mobile"
          value={text}
          onChange={(e) => {
            setText(e.target.value);
            setPaging((p) => ({ ...p, page: 0 }));
          }}
          sx={{ minWidth: 220 }}
        />
        <TextField
          select
          size="small"
          label="Status"
          value={activeFilter}
          onChange={(e) => {
            setActiveFilter(e.target.value as TActiveFilter);
            setPaging((p) => ({ ...p, page: 0 }));
          }}
          sx={{ minWidth: 140 }}
        >
          {(Object.keys(ACTIVE_FILTERS) as TActiveFilter[]).map((key) => (
            <MenuItem key={key} value={key}>
              {ACTIVE_FILTERS[key]}
            </MenuItem>
          ))}
        </TextField>
      </Box>
      <LabTable
        label="Referring doctors"
        columns={COLUMNS}
        fetching={query.isFetching}
        empty={!query.isPending && doctors.length === 0}
        total={query.data?.totalElements ?? 0}
        paging={paging}
        onPaging={setPaging}
      >
        {doctors.map((d) => (
          <TableRow key={d.id}>
            <TableCell>{d.name}</TableCell>
            <TableCell>{d.mobileNumber}</TableCell>
            <TableCell>{d.department ?? 'None'}</TableCell>
            <TableCell>
              <Switch
                checked={d.active}
                onChange={() => void toggle(d)}
                slotProps={{ input: { 'aria-label': `Active: ${d.name}` } }}
              />
            </TableCell>
            <TableCell align="right">
              <Button size="small" onClick={() => setEditing(d)} aria-label={`Edit ${d.name}`}>
                Edit
              </Button>
            </TableCell>
          </TableRow>
        ))}
      </LabTable>
      {editing !== null && (
        <ReferringDoctorDialog doctor={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />
      )}
    </Box>
  );
}

export default EditReferringDoctorPage;
