# Flushes the DNS client cache and re-registers the host, after a resolver was found poisoned.
Clear-DnsClientCache
Register-DnsClient
Get-DnsClientCache | Measure-Object | Select-Object -ExpandProperty Count
