import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { CORPUS_DIR, corpusIndex, generateTemplate } from '../../tests/fixtures/corpus/generate'
import { TEMPLATES } from '../../tests/fixtures/corpus/templates'
import { evaluateCorpus } from './corpus-eval'

/**
 * Floors, not targets: the template parser reached 90.5% on the tuning set when the corpus was
 * extended for issue 9, and 99.4% (one sample) / 99.8% (two) after the engine work, with
 * 0.02% / 0.03% of fields wrong in `success` results (`npm run eval:extract` prints the figures).
 * Raise them as the engine improves; never lower them to make a change pass.
 */
// 26 harder senders joined the tuning set in decision 027 (floor 99.5% → 99.4%); after decision
// 028 the set of 88 senders stood at 99.52% and 99.69%. Six more joined in decision 029 (first
// scored 92.4% together; the set fell to 99.13%) and after that work the 94 stood at 99.43% and
// 99.60%; six more (first 78.4% together: an English sample for German emails among them) took the
// 100 to 98.23%, and after that work they stood at 98.94% and 99.32%; with three more (bank-transactions-
// digest, hotel-folio, merchant-online-order) the 103 stood at 98.98% and 99.34%, and with
// invoice-reminder-digest the 104 stood at 98.95% and 99.31%. Decision 030 added listing-alert (with
// the cards rule that reads it, 92.9%) and four senders modelled on open-source projects' templates
// (sylius-order, gravity-form-entry, invoiceninja-invoice, trial-expiring; first 74.2%, 75.9%, 97.5%
// and 82.5%): the 109 stood at 98.18% and 98.67%; with librebooking-reservation (71.3% first, 27
// silently wrong; 89.6% and none after the counted list and same-line labels) the 110 stand at
// 98.16% and 98.62%; with bagisto-order and crater-invoice (85.8% and 94.2% first) the 112 stood
// at 98.19% and 98.54%; with nopcommerce-order and mautic-form, and values read by their place in
// emails worded otherwise, the 114 stood at 98.49% and 98.64%; with rows of a sparse grid (a
// timesheet's days) read whichever cells are empty, 98.63% and 98.82%. Decision 031 added six
// senders (whmcs-invoice, koha-overdue, crypto-withdrawal, snipeit-checkout, shift-schedule,
// leave-approved; first 79.6%, 39.6%, 91.1%, 100%, 58.9% and 82.8%): the 120 stood at 97.75% and
// 97.96%, 98.12% and 98.34% once item lines ending in an amount were read, 98.43% and
// 98.65% once a part of a list's lines that some leave out (a title's ` / Author`) was optional,
// and 98.51% and 98.73% with long fixed sentences as landmarks. Six more (gitlab-pipeline,
// odoo-sale-order, activity-summary, energy-usage, shop-refund, jira-issue; first 83.3%, 100%,
// 78.6%, 62.5%, 98.2% and 73.4%) made 126 at 97.75% and 98.00%; 98.19% and 98.37% after the work
// that followed; 98.39% and 98.58% once the subject's form was learned beside the body's. Decision 032
// added six senders in the style of large services (app-store-receipt, cloud-invoice-de,
// incident-alert, marketplace-order-in, task-digest, hotel-confirmation-ota; first 78.6%, 100%,
// 100%, 74.1%, 57.1% and 75.0%, with 38 silently wrong among them): the 132 stood at 97.57% and 98.02%,
// 98.29% and 98.58% after the work that followed. Five more (airline-eticket, insurance-claim,
// brokerage-activity, vet-appointment, marketplace-payout-fr; first 53.6%, 98.4%, 73.8%, 100% and
// 88.9%, 26 silently wrong) made 137 at 97.78% and 98.07%, 98.34% and 98.49% after the work that
// followed. A third five (supermarket-order-nl, subscription-invoice-stripe, car-service-invoice,
// pedido-es-marketplace, expense-approval; first 97.6%, 97.0%, 90.5%, 85.7% and 60.7%, 24 silently
// wrong) made 142 at 97.95% and 98.13%; 98.53% and 98.68% after the work that followed. A fourth
// four (coworking-booking, freight-quote, card-weekly-summary, classroom-grades; first 60.4%, 87.5%,
// 62.5% and 80.8%, 57 silently wrong) made 146 at 97.97% and 98.12%, 98.44% and 98.59% after.
// Decision 033's six (remittance-advice, license-key-delivery, gym-class-booking, allegro-order-pl,
// pharmacy-refill, mobile-bill-au; first 91.7%, 79.6%, 58.9%, 77.3%, 98.1% and 70.3%, 50 silently
// wrong) made 152 at 97.85% and 98.01% after the work they led to; its second five (alza-order-cz,
// payroll-run-summary, booking-partner-reservation, typeform-response, kickstarter-pledge; first
// 100%, 77.8%, 86.1%, 77.6% and 90.7%, 40 silently wrong) made 157 at 97.77% and 97.94% after.
// Decision 034's twelve, each from an open-source project's own template (vendure-order,
// solidus-order, killbill-invoice, calcom-booking, hievents-order, zencart-order, redmine-issue,
// akaunting-invoice, aimeos-order, fossbilling-invoice, attendize-order, formbricks-response; first
// 86.7% on average, 20 silently wrong) made 169 at 97.32% and 97.57% after the work they led to
// (the same 157: 97.82%). Decision 035's three tuning senders (thelia-order, zammad-ticket,
// oscommerce-order; first 48.5%, 69.6% and 62.5%, none silently wrong) made 172 at 96.88% and
// 97.13% after the work they led to (the same 169: 97.50%; thelia's French emails after an English
// sample are out of any template's reach).
const TUNING_ONE_SAMPLE_FLOOR = 0.965
const TUNING_TWO_SAMPLES_FLOOR = 0.965
/** Wrong values reported as success, as a share of fields (the goal is 0.2%). */
const SILENTLY_WRONG_CEILING = 0.002
/** A second sample must not make silent wrongs more likely than one does (it was 0.15% before 0.03%; 0.16% with decision 032's senders, then 0.08%; 0.10% with decision 033's first six, 0.13% with its second five, 0.14% with decision 034's twelve, 0.14% with decision 035's three). */
const TWO_SAMPLES_SILENTLY_WRONG_CEILING = 0.0015
/**
 * The held-out senders are never looked at while changing rules; only their totals guard against
 * a change that generalises worse (they were 91.9% and 0.33% silently wrong when first set; 93.3%
 * and 0.04% after a list stopped being learned from the lines of a block above its value).
 */
// Decision 030 added five held-out senders modelled on open-source projects' templates
// (medusa-order, appointment-confirmed, lago-invoice, pretix-order, cf7-contact): the 18 stood at
// 89.56% when they joined, 89.84% after the work that followed; 90.00% once item lines ending in
// an amount with its currency code were read past their option lines (decision 031); 90.21% once
// an item's cell of up to six lines read as one row and a whole sub-line by its place (decision 032).
// Decision 035 held out seven more, read from open-source projects' repositories
// (drupal-commerce-receipt, alfio-reservation, easyappointments-booked, opencollective-contribution,
// qloapps-booking, evershop-order, invoiceplane-invoice: 89.4% together on the engine before that
// session's work); the 18 went to 90.44% with that work, and the 25 stand at 90.15%.
const HELD_OUT_FLOOR = 0.9
const HELD_OUT_SILENTLY_WRONG_CEILING = 0.002
/**
 * Line items when the sample shows one item (the first such email of each sender with items):
 * 59.3% on the tuning set and 4.2% held out before a one-item sample was learned as a run of one
 * (decision 028), 91.9% and 47.9% at the end of that work (with five more senders with items);
 * 91.7% with the first six senders of decision 029, 89.5% with twelve, 88.3% with fifteen and
 * 86.6% with sixteen (the new senders' one-item samples often show the item's amount again as the
 * total; invoice-reminder-digest's one invoice is a sentence no rule reads as an item).
 */
// 86.1% with the senders of decision 030, 87.4% once a summary row named otherwise stopped tying
// with the item's own cell for a highlight shown in both; 89.8% once an amount highlighted for two
// fields went to the one labelled with its name and the item's row; 87.2% with the first six
// senders of decision 031, 86.9% with all twelve; 88.3% once a line the sample showed once and an
// email repeats was read as items; 85.1% with decision 032's six, 84.7% once a run of item blocks
// was chosen by its number of items (payroll-payslip's one earning, also the gross pay, lost the
// spurious run of two sections that had read it), 85.9% once a price cell with a discount under
// the price was an amount, 84.2% with the second five of decision 032, 82.5% with the third, 84.3%
// after the work that followed, 83.4% with the fourth four, 81.1% with decision 033's senders,
// 83.7% with decision 034's and the work that followed (the same 86 senders: 91.7% of all fields, was 90.9%);
// 84.0% with decision 035's.
const ONE_ITEM_TUNING_FLOOR = 0.8
/**
 * 47.9% on two held-out senders; 29.9% with the held-out senders of decision 030 (four with items),
 * then 31.3%, then 33.7%, then 48.3% (decision 032), 52.4% with decision 035's work, 75.2% with its
 * three held-out senders with items (seven with items in all).
 */
const ONE_ITEM_HELD_OUT_FLOOR = 0.7
/** Senders added for issue 9; the nineteen before them are those the rules were first tuned on. */
const NEW_SENDERS = new Set(TEMPLATES.slice(19).map((t) => t.id))

describe('accuracy corpus', () => {
  // Renders and compares every sender's 25 emails: minutes, not seconds, on a busy machine.
  it('is exactly what the seeded generator writes (regenerate with tests/fixtures/corpus/generate.ts)', { timeout: 180_000 }, async () => {
    expect(TEMPLATES.length).toBeGreaterThanOrEqual(43)
    expect(TEMPLATES.filter((t) => t.heldOut).length).toBeGreaterThanOrEqual(12)
    for (const template of TEMPLATES) {
      for (const generated of generateTemplate(template)) {
        const committed = await readFile(join(CORPUS_DIR, template.id, generated.path))
        expect(committed.equals(Buffer.from(generated.content)), `${template.id}/${generated.path}`).toBe(true)
      }
    }
    expect(await readFile(join(CORPUS_DIR, 'index.json'), 'utf8')).toBe(corpusIndex(TEMPLATES))
  })

  it('the template parser keeps its accuracy on the tuning set, trained on one sample and on two', { timeout: 360_000 }, async () => {
    const score = await evaluateCorpus(CORPUS_DIR)
    const tuning = score.templates.filter((t) => !t.heldOut)
    const misses = tuning.flatMap((t) => t.misses.map((m) => `${t.template}/${m.file} ${m.field}: ${JSON.stringify(m.got)} ≠ ${JSON.stringify(m.expected)}`))
    expect(score.templates.map((t) => t.template).sort()).toEqual(TEMPLATES.map((t) => t.id).sort())
    expect(score.templates.every((t) => t.emails >= 20)).toBe(true)
    expect(score.tuning.oneSample.accuracy, misses.slice(0, 20).join('\n')).toBeGreaterThanOrEqual(TUNING_ONE_SAMPLE_FLOOR)
    expect(score.tuning.twoSamples.accuracy).toBeGreaterThanOrEqual(TUNING_TWO_SAMPLES_FLOOR)
    expect(score.tuning.oneSample.silentlyWrong / score.tuning.oneSample.fields).toBeLessThanOrEqual(SILENTLY_WRONG_CEILING)
    expect(score.tuning.twoSamples.silentlyWrong / score.tuning.twoSamples.fields).toBeLessThanOrEqual(TWO_SAMPLES_SILENTLY_WRONG_CEILING)
    expect(score.heldOut.oneSample.accuracy).toBeGreaterThanOrEqual(HELD_OUT_FLOOR)
    expect(score.heldOut.oneSample.silentlyWrong / score.heldOut.oneSample.fields).toBeLessThanOrEqual(HELD_OUT_SILENTLY_WRONG_CEILING)
    expect(score.tuning.oneItemSample.lineItems.accuracy).toBeGreaterThanOrEqual(ONE_ITEM_TUNING_FLOOR)
    expect(score.heldOut.oneItemSample.lineItems.accuracy).toBeGreaterThanOrEqual(ONE_ITEM_HELD_OUT_FLOOR)
    // The first nineteen senders are the ones the rules were tuned on: they stay at 99% or better.
    const original = tuning.filter((t) => !NEW_SENDERS.has(t.template))
    const correct = original.reduce((n, t) => n + t.correct, 0)
    const fields = original.reduce((n, t) => n + t.fields, 0)
    expect(correct / fields).toBeGreaterThanOrEqual(0.99)
  })
})
