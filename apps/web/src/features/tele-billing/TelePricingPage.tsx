import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import {
  PRICE_CHARGES,
  PRICE_CHARGE_LABELS,
  type TPriceCharge,
  type TTelePrice,
  formatRupees,
  rupeesToMinor,
} from '@radflow/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { PageHeader } from '../../components/PageHeader';
import { useFeedback } from '../../components/feedback/feedback-context';
import {
  TELE_PRICES_KEY,
  addTelePrice,
  copyDefaultPrices,
  failureText,
  fetchTelePrices,
} from './tele-billing.api';
import { todayInDisplayZone } from '../../lib/format';

export const TELE_PRICING_LABELS = {
  title: 'Manage Tele Pricing',
  list: 'Price list',
  defaultList: 'Default list (all centers)',
  add: 'Add price',
  copy: 'Copy default list',
  history: 'Show history',
} as const;

interface TDraft {
  modality: string;
  studyPart: string;
  charge: TPriceCharge;
  amount: string;
  effectiveFrom: string;
}

function PriceDialog({
  open,
  draft,
  studyParts,
  onClose,
  onSave,
}: {
  open: boolean;
  draft: TDraft;
  studyParts: string[];
  onClose: () => void;
  onSave: (d: TDraft) => Promise<void>;
}) {
  const [d, setD] = useState(draft);
  const [busy, setBusy] = useState(false);
  const set = (k: keyof TDraft) => (e: { target: { value: string } }) => setD({ ...d, [k]: e.target.value });
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="xs">
      <DialogTitle>{TELE_PRICING_LABELS.add}</DialogTitle>
      <DialogContent sx={{ display: 'grid', gap: 2, pt: '8px !important' }}>
        <TextField label="Modality" value={d.modality} onChange={set('modality')} required />
        <TextField
          select
          label="Study part"
          value={d.studyPart}
          onChange={set('studyPart')}
          helperText="None = the modality's base price"
        >
          <MenuItem value="">None</MenuItem>
          {studyParts.map((p) => (
            <MenuItem key={p} value={p}>
              {p}
            </MenuItem>
          ))}
        </TextField>
        <TextField select label="Charge" value={d.charge} onChange={set('charge')}>
          {PRICE_CHARGES.map((c) => (
            <MenuItem key={c} value={c}>
              {PRICE_CHARGE_LABELS[c]}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          label="Amount (₹)"
          type="number"
          value={d.amount}
          onChange={set('amount')}
          required
          slotProps={{ htmlInput: { step: '0.01', min: 0 } }}
        />
        <TextField
          label="Effective from"
          type="date"
          value={d.effectiveFrom}
          onChange={set('effectiveFrom')}
          slotProps={{ inputLabel: { shrink: true } }}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button
          variant="contained"
          disabled={busy || d.modality.trim() === '' || d.amount === ''}
          onClick={() => {
            setBusy(true);
            void onSave(d).finally(() => setBusy(false));
          }}
        >
          Save
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/**
 * /manage-tele-pricing (issue 26 §1): the default list and each center's own prices, the ones in force
 * today, their history; a change is a new price from its effective date (a past invoice keeps its price).
 */
export function TelePricingPage() {
  const { showInfo, showError } = useFeedback();
  const queryClient = useQueryClient();
  const [centerId, setCenterId] = useState<number | null>(null);
  const [history, setHistory] = useState(false);
  const [dialog, setDialog] = useState<TDraft | null>(null);
  const query = useQuery({
    queryKey: [...TELE_PRICES_KEY, centerId],
    queryFn: ({ signal }) => fetchTelePrices(centerId, signal),
  });
  const data = query.data;
  const rows: TTelePrice[] = (data?.prices ?? []).filter((p) => history || p.inForce);
  const refresh = () => queryClient.invalidateQueries({ queryKey: TELE_PRICES_KEY });

  return (
    <Box sx={{ p: 2 }}>
      <PageHeader
        title={TELE_PRICING_LABELS.title}
        actions={
          <>
            {centerId !== null && (
              <Button
                onClick={() =>
                  void copyDefaultPrices(centerId, todayInDisplayZone())
                    .then((r) => {
                      showInfo(`${r.copied} prices copied`);
                      return refresh();
                    })
                    .catch((e: unknown) => showError(failureText(e)))
                }
              >
                {TELE_PRICING_LABELS.copy}
              </Button>
            )}
            <Button
              variant="contained"
              onClick={() =>
                setDialog({
                  modality: '',
                  studyPart: '',
                  charge: 'READ',
                  amount: '',
                  effectiveFrom: todayInDisplayZone(),
                })
              }
            >
              {TELE_PRICING_LABELS.add}
            </Button>
          </>
        }
      />
      <Box sx={{ display: 'flex', gap: 2, mb: 2, alignItems: 'center' }}>
        <TextField
          select
          size="small"
          label={TELE_PRICING_LABELS.list}
          value={centerId === null ? '' : String(centerId)}
          onChange={(e) => setCenterId(e.target.value === '' ? null : Number(e.target.value))}
          sx={{ minWidth: 260 }}
          slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
        >
          <MenuItem value="">{TELE_PRICING_LABELS.defaultList}</MenuItem>
          {(data?.centers ?? []).map((c) => (
            <MenuItem key={c.id} value={String(c.id)}>
              {c.name}
            </MenuItem>
          ))}
        </TextField>
        <Button onClick={() => setHistory(!history)}>
          {history ? 'Show in force only' : TELE_PRICING_LABELS.history}
        </Button>
      </Box>
      <TableContainer component={Paper}>
        <Table size="small" aria-label="Prices">
          <TableHead>
            <TableRow>
              <TableCell>Modality</TableCell>
              <TableCell>Study part</TableCell>
              <TableCell>Charge</TableCell>
              <TableCell align="right">Amount</TableCell>
              <TableCell>Effective from</TableCell>
              <TableCell />
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.length === 0 && (
              <TableRow>
                <TableCell colSpan={6}>{query.isLoading ? 'Loading…' : 'No prices'}</TableCell>
              </TableRow>
            )}
            {rows.map((p) => (
              <TableRow key={p.id}>
                <TableCell>{p.modality}</TableCell>
                <TableCell>{p.studyPart || '—'}</TableCell>
                <TableCell>{PRICE_CHARGE_LABELS[p.charge]}</TableCell>
                <TableCell align="right">{formatRupees(rupeesToMinor(p.amount))}</TableCell>
                <TableCell>{p.effectiveFrom}</TableCell>
                <TableCell>
                  {p.inForce && <Chip size="small" color="success" label="In force" sx={{ mr: 1 }} />}
                  <Button
                    size="small"
                    onClick={() =>
                      setDialog({
                        modality: p.modality,
                        studyPart: p.studyPart,
                        charge: p.charge,
                        amount: String(p.amount),
                        effectiveFrom: todayInDisplayZone(),
                      })
                    }
                  >
                    Change
                  </Button>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
      {dialog && (
        <PriceDialog
          open
          draft={dialog}
          studyParts={data?.studyParts ?? []}
          onClose={() => setDialog(null)}
          onSave={async (d) => {
            try {
              await addTelePrice({
                centerId,
                modality: d.modality,
                studyPart: d.studyPart,
                charge: d.charge,
                amount: Number(d.amount),
                effectiveFrom: d.effectiveFrom,
              });
              showInfo('Price saved');
              setDialog(null);
              await refresh();
            } catch (e) {
              showError(failureText(e));
            }
          }}
        />
      )}
    </Box>
  );
}
