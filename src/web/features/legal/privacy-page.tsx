import { Link } from 'react-router'
import { paths } from '@shared/paths'
import { LegalDocument, type LegalSection } from './components/legal-document'

// Placeholders until the operating company's details are known (spec §2).
const PRIVACY_EMAIL = 'privacy@example.com'
const COMPANY_ADDRESS = '[Company address]'

// Retention, response and age limits are spec §9 constants.
const sections: LegalSection[] = [
  {
    id: 'who-we-are',
    title: 'Who we are',
    content: (
      <>
        <p>
          Mailrow ("Mailrow", "we", "us" or "our") provides a service that reads notification emails you choose in
          your Gmail account, extracts the fields you define and writes them as rows to a Google Sheets spreadsheet.
        </p>
        <p>
          For the personal data described in this policy, Mailrow is the data controller. You can reach us at{' '}
          <a href={`mailto:${PRIVACY_EMAIL}`}>{PRIVACY_EMAIL}</a> or by post at {COMPANY_ADDRESS}.
        </p>
      </>
    ),
  },
  {
    id: 'information-we-collect',
    title: 'Information we collect',
    content: (
      <>
        <h3>Account information</h3>
        <p>
          When you create an account we collect your email address and, if you sign up with a password, a securely
          hashed version of it. If you sign in with Google we receive your name, email address and profile picture
          from your Google account.
        </p>
        <h3>Gmail data</h3>
        <p>
          When you connect Gmail, we request <strong>read-only</strong> access. We only read messages that match the
          filters you set on your parsers (sender, subject or label) and the sample emails you open while training
          a parser. We never modify, delete or send email on your behalf, and we do not read messages that do not
          match your filters.
        </p>
        <h3>Google Sheets data</h3>
        <p>
          We create spreadsheets at your request and append rows to the spreadsheets you choose as destinations. We
          do not read or change other spreadsheets in your Google Drive.
        </p>
        <h3>Google access tokens</h3>
        <p>
          To act on your behalf, we store the access and refresh tokens Google issues when you connect your
          account. These tokens are <strong>encrypted at rest</strong> and are used only to perform the actions
          described in this policy.
        </p>
        <h3>Parser configuration and parsed data</h3>
        <p>
          We store the parsers you create (their names, filters, field names, the text you highlighted as examples
          and their destination), the values extracted from each matching email, the email's subject and the
          processing result.
        </p>
        <h3>Technical information</h3>
        <p>
          Like most online services, we log technical information such as your IP address, browser type and the
          time of each request. We use it to keep the service secure and working.
        </p>
        <h3>Billing information</h3>
        <p>
          If you subscribe to a paid plan, payments are handled by our payment provider. We receive your plan,
          billing status and payment confirmations, never your full card number.
        </p>
      </>
    ),
  },
  {
    id: 'how-we-use-information',
    title: 'How we use your information',
    content: (
      <>
        <p>We use the information above only to:</p>
        <ul>
          <li>
            provide the service: find the emails that match your filters, extract the fields you defined and
            write them to your spreadsheet;
          </li>
          <li>show you your parsers and parsing activity on your dashboard;</li>
          <li>manage your account, your plan and your payments;</li>
          <li>
            send you messages about your account, such as security alerts, billing notices and changes to
            these policies;
          </li>
          <li>keep the service secure, prevent abuse and fix problems;</li>
          <li>meet our legal obligations.</li>
        </ul>
        <p>
          When a parser uses AI extraction, the content of each matching email is sent to our AI model provider,
          which processes it on our instructions only to return the fields you asked for. It is not used to train
          general-purpose AI models.
        </p>
        <p>We do not sell your personal data, and we do not use your email content for advertising.</p>
      </>
    ),
  },
  {
    id: 'legal-bases',
    title: 'Legal bases for processing',
    content: (
      <>
        <p>
          If you are in the European Economic Area, the United Kingdom or Switzerland, we rely on these legal
          bases:
        </p>
        <ul>
          <li>
            <strong>Performance of a contract</strong>: to provide the service you signed up for, as described in
            our <Link to={paths.terms}>Terms of Service</Link>.
          </li>
          <li>
            <strong>Legitimate interests</strong>: to secure the service, prevent fraud and improve reliability,
            where these interests are not overridden by your rights.
          </li>
          <li>
            <strong>Consent</strong>: where you give it, for example when you connect your Google account. You can
            withdraw consent at any time.
          </li>
          <li>
            <strong>Legal obligation</strong>: where the law requires us to keep or disclose information, such as
            tax records.
          </li>
        </ul>
      </>
    ),
  },
  {
    id: 'google-user-data',
    title: 'Google user data',
    content: (
      <>
        <p>
          Mailrow's use and transfer to any other app of information received from Google APIs will adhere to the{' '}
          <a href="https://developers.google.com/terms/api-services-user-data-policy" target="_blank" rel="noreferrer">
            Google API Services User Data Policy
          </a>
          , including the Limited Use requirements.
        </p>
        <p>In particular:</p>
        <ul>
          <li>we use Gmail and Google Sheets data only to provide and improve the features you use in Mailrow;</li>
          <li>
            we do not transfer this data to others except as needed to provide the service, to comply with the
            law, or as part of a merger or acquisition with notice to you;
          </li>
          <li>we do not use this data for advertising, and we do not sell it;</li>
          <li>
            no person at Mailrow reads your email unless you ask us to for a specific message, it is needed for
            security purposes such as investigating abuse, or the law requires it.
          </li>
        </ul>
        <p>
          You can revoke Mailrow's access at any time from your{' '}
          <a href="https://myaccount.google.com/permissions" target="_blank" rel="noreferrer">
            Google account permissions
          </a>
          . Parsers that rely on that access will stop processing emails.
        </p>
      </>
    ),
  },
  {
    id: 'sharing',
    title: 'How we share information',
    content: (
      <>
        <p>We share personal data only with:</p>
        <ul>
          <li>
            service providers who help us run Mailrow (hosting, AI extraction, email delivery and payments),
            under contracts that limit their use of the data to the services they provide to us;
          </li>
          <li>
            authorities, when the law requires it or to protect the rights, property or safety of our users
            and others;
          </li>
          <li>
            a buyer or successor, if Mailrow is involved in a merger, acquisition or sale of assets, in which
            case we will tell you before your data becomes subject to a different policy.
          </li>
        </ul>
      </>
    ),
  },
  {
    id: 'retention',
    title: 'Data retention',
    content: (
      <>
        <ul>
          <li>
            <strong>Parsed email data</strong> (extracted values, email subjects and processing results) is kept
            for <strong>90 days</strong> and then deleted automatically.
          </li>
          <li>
            <strong>Account data</strong>, parser settings and Google tokens are kept while your account is open.
          </li>
          <li>
            When you close your account, we delete your personal data <strong>within 30 days</strong>, except where
            the law requires us to keep some records (for example invoices) for longer.
          </li>
        </ul>
        <p>
          Rows that Mailrow has already written to your Google Sheets belong to you and stay in your Google account.
          Deleting your Mailrow account does not delete them.
        </p>
      </>
    ),
  },
  {
    id: 'your-rights',
    title: 'Your rights under the GDPR',
    content: (
      <>
        <p>If the GDPR or a similar data protection law applies to you, you have the right to:</p>
        <ul>
          <li><strong>Access</strong>: get a copy of the personal data we hold about you.</li>
          <li><strong>Rectification</strong>: have inaccurate or incomplete data corrected.</li>
          <li><strong>Erasure</strong>: have your data deleted.</li>
          <li><strong>Restriction</strong>: ask us to limit how we use your data.</li>
          <li>
            <strong>Portability</strong>: receive your data in a structured, machine-readable format, or have
            it sent to another provider.
          </li>
          <li><strong>Objection</strong>: object to processing based on our legitimate interests.</li>
          <li><strong>Withdraw consent</strong>: at any time, without affecting processing that already took place.</li>
          <li>
            <strong>Complain</strong>: lodge a complaint with a data protection supervisory authority, in particular
            in the country where you live or work.
          </li>
        </ul>
        <p>
          To exercise these rights, email <a href={`mailto:${PRIVACY_EMAIL}`}>{PRIVACY_EMAIL}</a>. We may ask you to
          confirm your identity, and we will respond <strong>within 30 days</strong> of receiving your request.
        </p>
      </>
    ),
  },
  {
    id: 'security',
    title: 'Security',
    content: (
      <p>
        We protect your data with encryption in transit (TLS), encryption of Google tokens at rest, access controls
        that limit who on our team can reach production systems, and regular review of our security practices. No
        system is perfectly secure; if a breach affects your personal data, we will notify you and the relevant
        authorities as the law requires.
      </p>
    ),
  },
  {
    id: 'international-transfers',
    title: 'International transfers',
    content: (
      <p>
        Our providers may process data outside your country. When personal data leaves the European Economic Area,
        the United Kingdom or Switzerland, we rely on safeguards recognised by the law, such as the European
        Commission's Standard Contractual Clauses.
      </p>
    ),
  },
  {
    id: 'children',
    title: "Children's privacy",
    content: (
      <p>
        Mailrow is not intended for anyone under <strong>16 years of age</strong>, and we do not knowingly collect
        personal data from them. If you believe a child under 16 has given us personal data, contact us and we will
        delete it.
      </p>
    ),
  },
  {
    id: 'cookies',
    title: 'Cookies',
    content: (
      <p>
        We use only essential cookies: a session cookie that keeps you signed in and protects your session. We do
        not use advertising, analytics or third-party tracking cookies.
      </p>
    ),
  },
  {
    id: 'changes',
    title: 'Changes to this policy',
    content: (
      <p>
        We may update this policy from time to time. The date at the top of this page shows when it last changed.
        If a change materially affects how we use your personal data, we will tell you by email or in the app
        before it takes effect.
      </p>
    ),
  },
  {
    id: 'contact',
    title: 'Contact us',
    content: (
      <>
        <p>Questions about this policy or your personal data are welcome:</p>
        <address className="not-italic">
          Mailrow
          <br />
          {COMPANY_ADDRESS}
          <br />
          <a href={`mailto:${PRIVACY_EMAIL}`}>{PRIVACY_EMAIL}</a>
        </address>
      </>
    ),
  },
]

/** /privacy (spec §2, §9). */
export function PrivacyPage() {
  return (
    <LegalDocument
      title="Privacy Policy"
      intro={
        <p>
          This policy explains what personal data Mailrow collects, why, how long we keep it and the choices you
          have. The short version: we read only the emails that match your filters, with read-only access, and only
          to turn them into spreadsheet rows for you.
        </p>
      }
      sections={sections}
    />
  )
}
