package play

// LiveGames returns how many games this service runs now: being played, or
// waiting for an opponent. The metrics report it.
func (s *Service) LiveGames() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.tables)
}
