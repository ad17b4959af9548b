import { SAMPLE_EMAIL_ID } from './contracts/parsers'

/**
 * The sample invoice the wizard shows when no email matches or Gmail can't be read (spec §2
 * step 3), so a user can still see how training works.
 */
export const SAMPLE_EMAIL = {
  id: SAMPLE_EMAIL_ID,
  subject: 'Invoice INV-2024-0042 from Northwind Supplies',
  from: 'Northwind Supplies <billing@northwind.example>',
  date: '2026-11-03T09:15:00.000Z',
  text: [
    'Hi Jamie,',
    '',
    'Thank you for your order. Here is your invoice.',
    '',
    'Invoice Number: INV-2024-0042',
    'Invoice Date: November 3, 2026',
    'Due Date: December 3, 2026',
    'Customer: Jamie Rivera',
    '',
    'Item | Qty | Price',
    'Ergonomic office chair | 2 | $249.00',
    'Standing desk frame | 1 | $389.50',
    '',
    'Subtotal: $887.50',
    'Tax: $71.00',
    'Amount Due: $958.50',
    '',
    'Pay online at https://northwind.example/pay/INV-2024-0042',
    '',
    'Northwind Supplies',
  ].join('\n'),
  html: `<div style="font-family:Arial,sans-serif;max-width:560px">
<p>Hi Jamie,</p>
<p>Thank you for your order. Here is your invoice.</p>
<table cellpadding="4">
<tr><td><b>Invoice Number:</b></td><td>INV-2024-0042</td></tr>
<tr><td><b>Invoice Date:</b></td><td>November 3, 2026</td></tr>
<tr><td><b>Due Date:</b></td><td>December 3, 2026</td></tr>
<tr><td><b>Customer:</b></td><td>Jamie Rivera</td></tr>
</table>
<table cellpadding="4" border="1" style="border-collapse:collapse;margin-top:12px">
<tr><th>Item</th><th>Qty</th><th>Price</th></tr>
<tr><td>Ergonomic office chair</td><td>2</td><td>$249.00</td></tr>
<tr><td>Standing desk frame</td><td>1</td><td>$389.50</td></tr>
</table>
<p>Subtotal: $887.50<br>Tax: $71.00<br><b>Amount Due: $958.50</b></p>
<p><a href="https://northwind.example/pay/INV-2024-0042">Pay online</a></p>
<p>Northwind Supplies</p>
</div>`,
}
