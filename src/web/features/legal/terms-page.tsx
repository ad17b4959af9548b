import { Link } from 'react-router'
import { paths } from '@shared/paths'
import { formatEmailsPerMonth, PLAN_INFO, PLANS } from '@shared/plans'
import { LegalDocument, type LegalSection } from './components/legal-document'

// Placeholders until the operating company's details are known (spec §2).
const LEGAL_EMAIL = 'legal@example.com'
const COMPANY_ADDRESS = '[Company address]'
const GOVERNING_LAW = '[Jurisdiction]'

// Dispute window, price-change notice and liability cap are spec §9 constants.
const sections: LegalSection[] = [
  {
    id: 'agreement',
    title: 'Agreement to these terms',
    content: (
      <p>
        These Terms of Service ("Terms") govern your use of Mailrow, including the website, the web application and
        any related services (together, the "Service"). By creating an account or using the Service you agree to
        these Terms. If you use the Service on behalf of an organisation, you confirm that you can bind that
        organisation, and "you" includes it.
      </p>
    ),
  },
  {
    id: 'service',
    title: 'The Service',
    content: (
      <>
        <p>
          Mailrow connects to your Gmail account with read-only access, finds the emails that match the filters you
          set, extracts the fields you define and appends them as rows to a Google Sheets spreadsheet. Depending on
          your plan, extraction uses pattern matching (Template Parser) or AI models (Smart AI and Full AI
          Parsers).
        </p>
        <p>
          The Service relies on Google's APIs. If Google changes or limits them, or if you revoke Mailrow's access,
          some features may stop working. We may improve, change or remove features over time; if a change
          significantly reduces what your paid plan includes, we will tell you in advance.
        </p>
      </>
    ),
  },
  {
    id: 'accounts',
    title: 'Your account',
    content: (
      <ul>
        <li>You must be at least 16 years old to use the Service.</li>
        <li>You must give accurate information when you sign up and keep it up to date.</li>
        <li>
          You are responsible for keeping your password and any two-factor devices secure and for all activity
          under your account. Tell us promptly at <a href={`mailto:${LEGAL_EMAIL}`}>{LEGAL_EMAIL}</a> if you
          suspect unauthorised use.
        </li>
        <li>
          You may only connect email accounts and spreadsheets you own or are authorised to use, and you are
          responsible for having the right to process the content of the emails you parse.
        </li>
      </ul>
    ),
  },
  {
    id: 'plans-and-billing',
    title: 'Plans and billing',
    content: (
      <>
        <p>The Service is offered on the following monthly plans:</p>
        <ul>
          {PLANS.map((planId) => {
            const plan = PLAN_INFO[planId]
            return (
              <li key={plan.id}>
                <strong>{plan.name}</strong>: ${plan.priceMonthly}/month, up to{' '}
                {formatEmailsPerMonth(plan.emailsPerMonth)} emails per month.
              </li>
            )
          })}
        </ul>
        <p>
          Paid plans are billed monthly in advance, in US dollars, and renew automatically at the start of each
          billing period until you cancel. Prices exclude taxes, which we add where the law requires. Each plan's
          email allowance applies per billing period and unused emails do not carry over. When you reach your
          allowance, we may pause processing until your next billing period begins or you upgrade.
        </p>
        <p>
          If you upgrade, the new plan applies straight away. If you downgrade, the change takes effect at the start
          of your next billing period. If we offer a free trial of a paid plan, we will tell you how long it lasts
          before it starts, and you will not be charged if you cancel before it ends.
        </p>
      </>
    ),
  },
  {
    id: 'cancellation',
    title: 'Cancellation',
    content: (
      <p>
        You can cancel your paid plan at any time. Cancellation takes effect at the{' '}
        <strong>end of your current billing period</strong>: you keep access to your plan until then and you will
        not be charged again. Except where the law requires otherwise, we do not refund partial billing periods.
      </p>
    ),
  },
  {
    id: 'payment-disputes',
    title: 'Payment disputes',
    content: (
      <p>
        If you believe a charge is wrong, contact us at <a href={`mailto:${LEGAL_EMAIL}`}>{LEGAL_EMAIL}</a>{' '}
        <strong>within 30 days</strong> of the charge. We will review it in good faith and correct any error.
        Charges not disputed within 30 days are considered accepted, to the extent the law allows. Please contact
        us before opening a dispute with your bank or card issuer so we can resolve it quickly.
      </p>
    ),
  },
  {
    id: 'price-changes',
    title: 'Price changes',
    content: (
      <p>
        We may change our prices. We will give you at least <strong>30 days' notice</strong> by email before a new
        price applies to your subscription. The new price takes effect from your first billing period after the
        notice period ends. If you do not agree, you can cancel before then.
      </p>
    ),
  },
  {
    id: 'acceptable-use',
    title: 'Acceptable use',
    content: (
      <>
        <p>You agree not to:</p>
        <ul>
          <li>use the Service for anything unlawful, fraudulent or harmful;</li>
          <li>process email you are not authorised to access, or personal data you have no lawful basis to process;</li>
          <li>send spam or use the Service to harass, track or surveil anyone;</li>
          <li>upload or transmit malware, or interfere with or disrupt the Service or its infrastructure;</li>
          <li>probe, scan or test the vulnerability of the Service without our written permission;</li>
          <li>get around plan limits, usage allowances or security measures;</li>
          <li>copy, reverse engineer or resell the Service, except where the law expressly allows it;</li>
          <li>infringe anyone's intellectual property or privacy rights.</li>
        </ul>
        <p>You must also comply with Google's terms that apply to your Gmail and Google Sheets accounts.</p>
      </>
    ),
  },
  {
    id: 'your-data',
    title: 'Your data',
    content: (
      <p>
        You keep all rights to your emails, your spreadsheets and the data Mailrow extracts for you. You give us
        permission to access, process and store that data only as needed to provide the Service to you. How we
        handle personal data is described in our <Link to={paths.privacy}>Privacy Policy</Link>.
      </p>
    ),
  },
  {
    id: 'termination',
    title: 'Termination',
    content: (
      <>
        <p>
          You can stop using the Service and close your account at any time. We may suspend or terminate your
          account if you materially breach these Terms, fail to pay, or if we are required to by law. Where
          reasonable, we will warn you first and give you a chance to fix the problem.
        </p>
        <p>
          When your account ends, your parsers stop processing emails and we delete your data as described in our
          Privacy Policy. Rows already written to your Google Sheets remain in your Google account. Sections that by
          their nature should survive termination, such as disclaimers and limitation of liability, continue to
          apply.
        </p>
      </>
    ),
  },
  {
    id: 'disclaimers',
    title: 'Disclaimers',
    content: (
      <>
        <p>
          The Service is provided "as is" and "as available". To the fullest extent the law allows, we disclaim all
          warranties, express or implied, including merchantability, fitness for a particular purpose and
          non-infringement.
        </p>
        <p>
          Automated and AI-based extraction can make mistakes. You are responsible for checking extracted data
          before relying on it. We do not promise that the Service will be uninterrupted or error-free, or that
          every matching email will be processed.
        </p>
      </>
    ),
  },
  {
    id: 'liability',
    title: 'Limitation of liability',
    content: (
      <>
        <p>
          To the fullest extent the law allows, Mailrow will not be liable for any indirect, incidental, special,
          consequential or punitive damages, or for lost profits, revenue, data or goodwill.
        </p>
        <p>
          Our total liability for all claims relating to the Service is limited to the{' '}
          <strong>amount you paid us in the 12 months</strong> before the event giving rise to the claim. If you
          use the Free plan, this amount is zero.
        </p>
        <p>
          Nothing in these Terms limits liability that cannot be limited under the law, such as liability for fraud
          or for death or personal injury caused by negligence.
        </p>
      </>
    ),
  },
  {
    id: 'changes',
    title: 'Changes to these terms',
    content: (
      <p>
        We may update these Terms from time to time. The date at the top of this page shows when they last changed.
        If a change is material, we will notify you by email or in the app before it takes effect. If you keep
        using the Service after that, you accept the updated Terms.
      </p>
    ),
  },
  {
    id: 'governing-law',
    title: 'Governing law',
    content: (
      <p>
        These Terms are governed by the laws of {GOVERNING_LAW}, without regard to its conflict of law rules. Any
        dispute will be resolved by the courts of {GOVERNING_LAW}, unless the law of the country where you live
        as a consumer gives you the right to bring proceedings there.
      </p>
    ),
  },
  {
    id: 'contact',
    title: 'Contact us',
    content: (
      <>
        <p>Questions about these Terms can be sent to:</p>
        <address className="not-italic">
          Mailrow
          <br />
          {COMPANY_ADDRESS}
          <br />
          <a href={`mailto:${LEGAL_EMAIL}`}>{LEGAL_EMAIL}</a>
        </address>
      </>
    ),
  },
]

/** /terms (spec §2, §9). */
export function TermsPage() {
  return (
    <LegalDocument
      title="Terms of Service"
      intro={
        <p>
          Please read these Terms carefully. They explain what you can expect from Mailrow, what we expect from you,
          and how billing, cancellation and liability work.
        </p>
      }
      sections={sections}
    />
  )
}
