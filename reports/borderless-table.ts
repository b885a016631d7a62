import Table from 'cli-table3';

/** A borderless cli-table3 with fixed column widths, columns separated by one space. */
export function borderlessTable(head: string[], colWidths: number[]): Table.Table {
  return new Table({
    head,
    colWidths,
    wordWrap: true,
    wrapOnWordBoundary: true,
    chars: {
      top: '',
      'top-mid': '',
      'top-left': '',
      'top-right': '',
      bottom: '',
      'bottom-mid': '',
      'bottom-left': '',
      'bottom-right': '',
      left: '',
      'left-mid': '',
      mid: '',
      'mid-mid': '',
      right: '',
      'right-mid': '',
      middle: ' ',
    },
    style: { head: [], border: [], 'padding-left': 0, 'padding-right': 0 },
  });
}
